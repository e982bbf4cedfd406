/**
 * A scan's gauges made one resource at a time (src/scan/scanGauges.ts) and kept by the service as
 * text (src/scan/servedGauges.ts): every resource counted in its region's sums, the series of each
 * region's first resources only, up to its share of MAX_RESOURCE_SERIES; a region's scrape holds
 * its own samples alone, every family's help and type kept.
 */
import { describe, expect, it } from "vitest";
import type { ResourceWithImpacts } from "../../src/scan/resources.js";
import { MAX_RESOURCE_SERIES, scanGaugeSet } from "../../src/scan/scanGauges.js";
import { servedGaugesOf } from "../../src/scan/servedGauges.js";

const REGIONS = ["eu-west-3", "us-east-1", "eu-central-1", "eu-west-1"];
const SHARE = MAX_RESOURCE_SERIES / REGIONS.length;

/** The n-th instance of a region: its gwp embodied n + 0.5 kg, its use 1 kg; every 10th not evaluated. */
function instance(region: string, n: number): ResourceWithImpacts {
  return {
    cloud_resource: {
      provider: "AWS",
      id: `i-${region}-${n}`,
      location: { aws_region: region, iso_country_code: region.startsWith("eu") ? "FRA" : "USA" },
      resource_details: {
        instance: { instance_type: "m5.large", usage: { average_cpu_load: 50, state: "running" } },
      },
      tags: [{ key: "team", value: 'a"b\\c' }],
    },
    impacts_duration_hours: 1,
    impacts_values:
      n % 10 === 9
        ? null
        : {
            gwp_manufacture_kgco2eq: n + 0.5,
            gwp_use_kgco2eq: 1,
            adp_manufacture_kgsbeq: 0,
            adp_use_kgsbeq: 0,
            pe_manufacture_megajoules: 0,
            pe_use_megajoules: 0,
            raw_data: null,
          },
  };
}

const value = (text: string, name: string, label: string) => {
  const line = text.split("\n").find((one) => one.startsWith(`${name}{`) && one.includes(label));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(" ") + 1));
};

describe("a scan's gauges, bounded", () => {
  const counts = [SHARE * 3, 5, SHARE, 0];
  const gauges = scanGaugeSet({
    regions: REGIONS,
    filterKeys: ["team"],
    hours: 1,
    cloudScannerVersion: "impact-service test",
    boaviztapiVersion: "1.2.4",
  });
  const largest = Math.max(...counts);
  // Interleaved, as regions read at once hand their pages.
  for (let n = 0; n < largest; n += 1)
    REGIONS.forEach((region, at) => {
      if (n < counts[at]) gauges.add(instance(region, n));
    });
  const text = gauges.text(
    [{ region: "eu-west-1", line: "eu-west-1: DescribeInstances denied" }],
    1_764_000_000_000,
  );

  it("counts every resource in its region's sums, in the order read", () => {
    REGIONS.forEach((region, at) => {
      const label = `awsregion="${region}"`;
      let sum = 0;
      for (let n = 0; n < counts[at]; n += 1) sum += n % 10 === 9 ? 0 : n + 0.5;
      expect(value(text, "boavizta_number_of_resources_total", label)).toBe(counts[at]);
      expect(value(text, "boavizta_number_of_resources_assessed", label)).toBe(
        counts[at] - Math.floor(counts[at] / 10),
      );
      expect(value(text, "boavizta_gwp_manufacture_kgco2eq", label)).toBe(sum);
      expect(value(text, "impact_scan_resources_not_exported", label)).toBe(Math.max(0, counts[at] - SHARE));
      expect(value(text, "impact_scan_problems", label)).toBe(region === "eu-west-1" ? 1 : 0);
    });
    expect(gauges.notExported()).toBe(SHARE * 2);
  });

  it("keeps each region's first resources' series, up to its share of the bound", () => {
    const cpu = text.split("\n").filter((line) => line.startsWith("boavizta_resource_cpu_load{"));
    expect(cpu.length).toBe(SHARE + 5 + SHARE);
    expect(cpu.filter((line) => line.includes('awsregion="eu-west-3"')).length).toBe(SHARE);
    expect(text).toContain(`resource_id="i-eu-west-3-${SHARE - 1}"`);
    expect(text).not.toContain(`resource_id="i-eu-west-3-${SHARE}"`);
    // A label's quote and backslash escaped, as Prometheus's text format writes them.
    expect(cpu[0]).toContain('resource_tags="team:a\\"b\\\\c;"');
    expect(cpu[0]).toContain('tag_team="a\\"b\\\\c"');
  });

  it("served: one region's samples alone, every family's help and type kept, the text made once", () => {
    const served = servedGaugesOf(text);
    expect(served?.regions).toEqual(REGIONS.slice(0, 4));
    expect(served?.text(null)).toBe(text);
    const one = served?.text("us-east-1") ?? "";
    expect(one).not.toContain('awsregion="eu-west-3"');
    expect(value(one, "boavizta_number_of_resources_total", 'awsregion="us-east-1"')).toBe(5);
    expect(one.split("\n").filter((line) => line.startsWith("# HELP")).length).toBe(
      text.split("\n").filter((line) => line.startsWith("# HELP")).length,
    );
    expect(served?.text("us-east-1")).toBe(one);
    expect(servedGaugesOf("not gauges\n")).toBeNull();
  });
});
