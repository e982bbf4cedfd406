/**
 * The Impact Framework plugins read an observation's numbers as every input's (src/support/numbers.ts):
 * a bigint intensity is its value (no "Do not know how to serialize a BigInt"), -0 is 0 (never a
 * `-0` answer), and a number that is not finite or out of range is one error naming the field.
 */
import { describe, expect, it } from "vitest";
import { BoaviztaCloud } from "../../src/if/plugins.js";

const OBSERVATION = {
  timestamp: "2024-01-01T00:00:00Z",
  duration: 3600,
  "cloud/vendor": "aws",
  "cloud/instance-type": "m5.xlarge",
  location: "FRA",
};
const plugin = () => BoaviztaCloud({ edition: "2.4.1", criteria: ["gwp"] });

describe("the IF plugins' numbers", () => {
  it("a bigint grid/carbon-intensity is read as its value, and written back as a number", async () => {
    const [asNumber] = await plugin().execute([{ ...OBSERVATION, "grid/carbon-intensity": 300 }]);
    const [asBigint] = await plugin().execute([{ ...OBSERVATION, "grid/carbon-intensity": 300n }]);
    expect(asBigint["boavizta/gwp-use"]).toBe(asNumber["boavizta/gwp-use"]);
    expect(asBigint["grid/carbon-intensity"]).toBe(300);
    expect(() => JSON.stringify(asBigint)).not.toThrow();
  }, 60_000);

  it("an intensity of -0 (a number or a text) answers a gwp use of 0, not -0", async () => {
    for (const intensity of [-0, "-0", "-0.0"]) {
      const [output] = await plugin().execute([{ ...OBSERVATION, "grid/carbon-intensity": intensity }]);
      expect(Object.is(output["boavizta/gwp-use"], 0), String(intensity)).toBe(true);
    }
  }, 60_000);

  it("a bigint past the range, Infinity, NaN or 1e308 is one error naming the field", async () => {
    for (const duration of [10n ** 40n, Number.POSITIVE_INFINITY, Number.NaN, 1e308, "Infinity"]) {
      await expect(plugin().execute([{ ...OBSERVATION, duration }])).rejects.toThrow(
        /BoaviztaCloud observation 1: duration: (must be a finite number|expected a number)/,
      );
    }
    await expect(plugin().execute([{ ...OBSERVATION, "grid/carbon-intensity": 10n ** 40n }])).rejects.toThrow(
      /grid\/carbon-intensity: must be a finite number.*\(given: "1000+n"\)/,
    );
  }, 60_000);
});
