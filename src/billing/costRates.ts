/*
 * The rate of lines estimated by their cost (method `by-cost`, sql/classify/billing_methods.sql): for each
 * provider billing such lines, the energy of its instance lines per unit of their cost in the same
 * bill — Cloud Carbon Footprint's estimate of managed services whose hardware is not billed
 * ("Handling Unknown Usage Types": the kilowatt-hours per cost of the best-fitting known usage, for
 * AWS by cost; lines billed in hours fit compute). docs/methodology.md, "Billing lines that are not
 * instance hours".
 */

import type { DuckDBConnection } from "@duckdb/node-api";
import { impactsQuery, sqlQuery } from "./queries.js";
import { COST_KEY } from "./stages/methodRows.js";

/**
 * kWh per unit of cost (PUE included) of each provider's evaluated instance lines with a positive
 * cost, for the providers with lines of the cost key; read from the kinds of lines
 * (billing_line_kinds, grouped by the sign of their cost) and the lookup table.
 */
export async function costRates(connection: DuckDBConnection): Promise<Map<string, number>> {
  // The kinds' energy and cost read in one order and summed here: DuckDB's SUM over threads adds
  // in the order its threads finish, so the rate's last digit changed from run to run on a busy
  // machine, and with it every by-cost line of the output.
  const reader = await connection.runAndReadAll(
    `WITH billing_classified AS (SELECT * FROM billing_line_kinds),
       billing_located AS (${sqlQuery("evaluate/billing_located.sql")})
     SELECT COALESCE(billing_provider, '') AS provider, energy_kwh, billing_cost
     FROM (${impactsQuery([])}) kinds
     WHERE billing_method = 'instance' AND billing_problem IS NULL AND billing_cost > 0 AND energy_kwh > 0
       AND COALESCE(billing_provider, '') IN (
         SELECT COALESCE(billing_provider, '') FROM billing_line_kinds WHERE billing_method_key = '${COST_KEY}')
     ORDER BY ALL`,
  );
  const sums = new Map<string, { energy: number; cost: number }>();
  for (const row of reader.getRowObjects()) {
    const provider = String(row.provider);
    const sum = sums.get(provider) ?? { energy: 0, cost: 0 };
    sum.energy += Number(row.energy_kwh);
    sum.cost += Number(row.billing_cost);
    sums.set(provider, sum);
  }
  return new Map([...sums].map(([provider, sum]) => [provider, sum.energy / sum.cost]));
}
