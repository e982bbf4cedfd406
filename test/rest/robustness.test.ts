/**
 * Seeded random requests across the v1 routes, with odd values in every field: the service
 * answers each with a 2xx or a 4xx, never a 5xx (the reference fails on many of them).
 */
import { describe, expect, it } from "vitest";
import { EDITION_IDS } from "../../src/editions/index.js";
import { sharedApp } from "../support/app.js";

const app = sharedApp();

/** A small deterministic generator (LCG), so a failure can be replayed. */
function generator(seed: number) {
  let state = seed;
  const next = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
  return {
    chance: (p: number) => next() < p,
    pick: <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)],
  };
}

const VALUES = [0, 1, -1, 0.5, 100, 101, 1e6, 1e12, "12", "abc", null, true, [], {}, "", 3.7, -250];
const TEXTS = [
  "FRA",
  "EEE",
  "ZZZ",
  "",
  "pro",
  "gaming",
  "HSL-1",
  "casing",
  "antenna",
  "Intel Xeon Gold 6134",
  "xeon",
  null,
  5,
];
const PATHS = [
  "/v1/server/",
  "/v1/component/cpu",
  "/v1/component/ram",
  "/v1/component/ssd",
  "/v1/component/case",
  "/v1/component/motherboard",
  "/v1/cloud/instance",
  "/v1/terminal/laptop",
  "/v1/peripheral/monitor",
  "/v1/iot/iot_device",
  "/v1/consumption_profile/cpu",
];

describe.each(EDITION_IDS)("never a 5xx (edition %s)", (edition) => {
  it("answers 400 seeded random requests with a 2xx or a 4xx", async () => {
    const { chance, pick } = generator(20261122);
    const failures: string[] = [];
    for (let i = 0; i < 400; i++) {
      const path = pick(PATHS);
      const query = [`verbose=${pick(["true", "false", "x"])}`, `edition=${edition}`];
      if (chance(0.3))
        query.push(`criteria=${pick(["gwp", "ir", "lu", "fw", "fe", "wu", "CTUh_c", "ctuh_c", "all"])}`);
      if (chance(0.3)) query.push(`duration=${pick(["0", "1", "-1", "abc", "1e9"])}`);
      if (chance(0.2))
        query.push(`archetype=${pick(["dellR740", "nope", "blade", "tv-perso", "drone_mini"])}`);
      const usage: Record<string, unknown> = {};
      for (const key of [
        "avg_power",
        "use_time_ratio",
        "hours_life_time",
        "time_workload",
        "usage_location",
      ]) {
        if (chance(0.3)) usage[key] = key === "usage_location" ? pick(TEXTS) : pick(VALUES);
      }
      const body: Record<string, unknown> = { usage };
      for (const key of [
        "units",
        "capacity",
        "core_units",
        "die_size_per_core",
        "tdp",
        "die_size",
        "density",
        "unit_weight",
      ]) {
        if (chance(0.15)) body[key] = pick(VALUES);
      }
      for (const key of [
        "name",
        "family",
        "manufacturer",
        "type",
        "case_type",
        "instance_type",
        "provider",
      ]) {
        if (chance(0.15)) body[key] = pick(TEXTS);
      }
      if (chance(0.2))
        body.configuration = {
          cpu: { name: pick(TEXTS), units: pick(VALUES) },
          ram: pick([[], [{ capacity: pick(VALUES) }], null]),
        };
      if (chance(0.2)) body.functional_blocks = [{ type: pick(TEXTS), hsl_level: pick(TEXTS) }];
      if (chance(0.2)) body.workload = [{ load_percentage: pick(VALUES), power_watt: pick(VALUES) }];
      const method = chance(0.8) ? "POST" : "GET";
      const answer = await app.rest({
        method,
        url: `${path}?${query.join("&")}`,
        body: JSON.stringify(body),
      });
      if (answer.status >= 500) failures.push(`${method} ${path}?${query.join("&")} ${JSON.stringify(body)}`);
    }
    expect(failures).toEqual([]);
  });
});
