/*
 * The rate of lines estimated by their cost (method `by-cost`, sql/classify/billing_methods.sql): for each
 * provider billing such lines, the energy of its instance lines per unit of their cost in the same
 * bill — Cloud Carbon Footprint's estimate of managed services whose hardware is not billed
 * ("Handling Unknown Usage Types": the kilowatt-hours per cost of the best-fitting known usage, for
 * AWS by cost; lines billed in hours fit compute). docs/methodology.md, "Billing lines that are not
 * instance hours".
 */

import type { DuckDBConnection } from "@duckdb/node-api";
import { COST_KEY } from "./methods.js";
import { impactsQuery, sqlQuery } from "./queries.js";

/**
 * kWh per unit of cost (PUE included) of each provider's evaluated instance lines with a positive
 * cost, for the providers with lines of the cost key; read from the kinds of lines
 * (billing_line_kinds, grouped by the sign of their cost) and the lookup table.
 */
export async function costRates(connection: DuckDBConnection): Promise<Map<string, number>> {
  const reader = await connection.runAndReadAll(
    `WITH billing_classified AS (SELECT * FROM billing_line_kinds),
       billing_located AS (${sqlQuery("evaluate/billing_located.sql")})
     SELECT COALESCE(billing_provider, '') AS provider, SUM(energy_kwh) / SUM(billing_cost) AS rate
     FROM (${impactsQuery([])}) kinds
     WHERE billing_method = 'instance' AND billing_problem IS NULL AND billing_cost > 0 AND energy_kwh > 0
       AND COALESCE(billing_provider, '') IN (
         SELECT COALESCE(billing_provider, '') FROM billing_line_kinds WHERE billing_method_key = '${COST_KEY}')
     GROUP BY ALL`,
  );
  return new Map(reader.getRowObjects().map((row) => [String(row.provider), Number(row.rate)]));
}
