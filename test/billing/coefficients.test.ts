import { describe, expect, it } from "vitest";
import { rounded } from "../../src/engine/model/evaluation.js";
import { type CoefficientRow, coefficientTable } from "../../src/service/coefficients.js";
import { call } from "../support/rest.js";
import { app, editionContext, expectClose, routeRaw } from "./support.js";

/** Durations in hours: the row × hours must be the route's answer for that duration. */
const DURATIONS = [1, 730, 0.25, 8760, 37.5];

async function collect(rows: AsyncIterable<CoefficientRow>): Promise<CoefficientRow[]> {
  const out: CoefficientRow[] = [];
  for await (const row of rows) out.push(row);
  return out;
}

describe.each(["2.4.1", "1.2.4"])("coefficient table of edition %s", (edition) => {
  it("has every instance type of every provider, each row × hours equal to the single route", async () => {
    const context = editionContext(edition);
    const table = coefficientTable(context, {});
    const rows = await collect(table.rows);
    expect(rows).toHaveLength(table.size);
    const { data } = context.service;
    // Every listed instance type of every provider has its rows, at the default place first.
    const byInstance = new Map<string, CoefficientRow[]>();
    for (const row of rows) {
      const key = `${row.provider}/${row.instanceType}`;
      const instanceRows = byInstance.get(key);
      if (instanceRows === undefined) byInstance.set(key, [row]);
      else instanceRows.push(row);
    }
    let listed = 0;
    for (const provider of data.cloudProviders) {
      for (const id of data.cloudInstances.get(provider.name)?.ids ?? []) {
        listed += 1;
        expect(byInstance.has(`${provider.name}/${id}`), `${provider.name}/${id}`).toBe(true);
      }
    }
    expect(byInstance.size).toBe(listed);
    // For every instance type: its default place and one other place (a different one each time,
    // the factor-scaled ones included), at one of the durations.
    let turn = 0;
    for (const [key, instanceRows] of byInstance) {
      const picks = [instanceRows[0], instanceRows[1 + ((turn * 7) % (instanceRows.length - 1))]];
      for (const row of picks) {
        const hours = DURATIONS[turn % DURATIONS.length];
        turn += 1;
        const route = await routeRaw(
          edition,
          row.provider,
          row.instanceType,
          row,
          null,
          hours,
          table.criteria,
        );
        table.criteria.forEach((criterion, index) => {
          for (const phase of ["embedded", "use"] as const) {
            const expected = route[index][phase];
            const actual = row.perHour[index][phase];
            const what = () =>
              `${key} ${row.region ?? row.usageLocation ?? "default"} ${criterion.requested} ${phase} ${hours} h`;
            // Asked of vitest where it fails (about 17 µs a call: this loop checks some 10^4 pairs)
            if ((actual === null) !== (expected === null))
              expect(actual === null, what()).toBe(expected === null);
            if (actual === null || expected === null) continue;
            expectClose(actual.value * hours, expected.value, `${what()} value`);
            expectClose(actual.min * hours, expected.min, `${what()} min`);
            expectClose(actual.max * hours, expected.max, `${what()} max`);
          }
        });
      }
    }
  });

  it("at a given load, every place of a sample of instance types equals the single route", async () => {
    const context = editionContext(edition);
    for (const load of [10, 80]) {
      const table = coefficientTable(context, { provider: "aws", load, criteria: ["gwp", "pe"] });
      const rows = await collect(table.rows);
      const sample = rows.filter(
        (row) => row.instanceType === "m5.xlarge" || row.instanceType === "c5.large",
      );
      expect(sample.length).toBeGreaterThan(2);
      for (const row of sample) {
        const route = await routeRaw(edition, "aws", row.instanceType, row, load, 730, table.criteria);
        table.criteria.forEach((_criterion, index) => {
          for (const phase of ["embedded", "use"] as const) {
            const actual = row.perHour[index][phase];
            const expected = route[index][phase];
            expect(actual === null).toBe(expected === null);
            if (actual && expected) {
              expectClose(actual.value * 730, expected.value, `${row.instanceType} ${load}% ${phase}`);
              expectClose(actual.max * 730, expected.max, `${row.instanceType} ${load}% ${phase} max`);
            }
          }
        });
      }
    }
  });
});

describe("the unrounded values are the route's", () => {
  it("rounded as the edition rounds, they are POST /v1/cloud/instance's answer", async () => {
    const context = editionContext("2.4.1");
    const table = coefficientTable(context, { provider: "azure", criteria: ["gwp"] });
    let checked = 0;
    for await (const row of table.rows) {
      if (row.instanceType !== "d4ads_v5" || (row.region !== null && row.region !== "westeurope")) continue;
      const body = {
        provider: "azure",
        instance_type: row.instanceType,
        ...(row.region ? { usage: { region: row.region } } : {}),
      };
      const answer = await call(
        app,
        "POST",
        "/v1/cloud/instance?edition=2.4.1&verbose=false&duration=24&criteria=gwp",
        body,
      );
      expect(answer.status).toBe(200);
      const route = await routeRaw("2.4.1", "azure", row.instanceType, row, null, 24, table.criteria);
      for (const phase of ["embedded", "use"] as const) {
        const raw = route[0][phase];
        if (raw === null) throw new Error("gwp is computed for this instance");
        const shown = rounded(raw, context.engine.rules.roundImpact);
        expect(answer.body.impacts.gwp[phase].value).toBe(shown.value);
        expectClose((row.perHour[0][phase]?.value ?? Number.NaN) * 24, raw.value, phase);
      }
      checked += 1;
    }
    expect(checked).toBe(2);
  });

  it("refuses an unknown provider, criterion or load before computing anything", () => {
    const context = editionContext("2.4.1");
    expect(() => coefficientTable(context, { provider: "nimbus" })).toThrow(/nimbus/);
    expect(() => coefficientTable(context, { criteria: ["gwpp"] })).toThrow(/gwpp/);
    expect(() => coefficientTable(context, { load: 120 })).toThrow(/load/);
  });
});
