/**
 * `impact-service scan aws`'s options, checked before any call to AWS: every value bounded, every
 * misuse one line naming the option (exit 2), `--help` the usage.
 */
import { describe, expect, it } from "vitest";
import { scanOptions } from "../../src/cli/scan/scanOptions.js";
import { runMain } from "../support/cli.js";

const NOW = Date.UTC(2026, 10, 27, 12);
const env = { AWS_REGION: "eu-west-3" };
const refusal = (argv: string[]) => {
  try {
    scanOptions(argv, env, NOW);
  } catch (error) {
    return (error as Error).message;
  }
  return null;
};

describe("scan aws's options", () => {
  it("reads the regions, filters and period asked; the environment's region by default", () => {
    const asked = scanOptions(
      [
        "aws",
        "--region",
        "eu-west-3,us-east-1",
        "--region",
        "eu-west-3",
        "--filter-tag",
        "env=prod",
        "--hours",
        "24",
      ],
      {},
      NOW,
    );
    if (asked.help) throw new Error("help");
    expect(asked.options.regions).toEqual(["eu-west-3", "us-east-1"]);
    expect(asked.options.filters).toEqual([{ key: "env", value: "prod" }]);
    expect(asked.options.period).toEqual([NOW - 24 * 3_600_000, NOW]);
    expect(asked.options.outputs.inventory).toBe("-");
    const fallback = scanOptions(["aws", "--period", "2026-11-26T00:00Z/2026-11-27T00:00+01:00"], env, NOW);
    if (fallback.help) throw new Error("help");
    expect(fallback.options.regions).toEqual(["eu-west-3"]);
    expect(fallback.options.period).toEqual([Date.UTC(2026, 10, 26), Date.UTC(2026, 10, 26, 23)]);
  });

  it("refuses each misuse in one line naming the option", () => {
    expect(refusal(["gcp"])).toBe("scan reads aws, not gcp");
    expect(refusal(["aws", "--region", "eu-west-9"])).toBe(
      "--region eu-west-9 is not an AWS region; did you mean eu-west-1, eu-west-2 or eu-west-3?",
    );
    expect(refusal(["aws", "--hours", "0"])).toBe("--hours is a number from 0.1 to 8784, not 0");
    expect(refusal(["aws", "--hours", "1", "--period", "2026-11-26T00:00Z/2026-11-27T00:00Z"])).toBe(
      "--hours and --period: give one of them",
    );
    expect(refusal(["aws", "--period", "2026-11-27T00:00Z/2026-11-28T00:00Z"])).toBe(
      "--period 2026-11-27T00:00Z/2026-11-28T00:00Z: its end is after now (a scan reads what has run)",
    );
    expect(refusal(["aws", "--period", "yesterday"])).toMatch(/^--period is <start>\/<end> in ISO 8601/);
    expect(refusal(["aws", "--filter-tag", "env"])).toBe("--filter-tag is key=value, not env");
    expect(refusal(["aws", "--timeout", "5"])).toBe("--timeout is a number from 10 to 3600, not 5");
    expect(refusal(["aws", "--endpoint", "not a url"])).toBe(
      "--endpoint is a URL (http://127.0.0.1:5000), not not a url",
    );
    expect(refusal(["aws", "--inventory", "-", "--json", "-"])).toBe(
      "--inventory and --json both write to stdout: give files",
    );
    expect(refusal(["aws", "--report", "r.html"])).toBe("--report is an option of --evaluate");
  });

  it("without a region anywhere, says where to give one", () => {
    expect(() => scanOptions(["aws"], {}, NOW)).toThrow("no region: --region <region> (or AWS_REGION)");
  });

  it("--help prints the usage; a misuse exits 2 before any call", async () => {
    const help = await runMain(["scan", "--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("usage: impact-service scan aws [options]");
    const misuse = await runMain(["scan", "aws", "--region", "mars-1"]);
    expect(misuse.code).toBe(2);
    expect(misuse.stderr).toMatch(/^impact-service: --region mars-1 is not an AWS region/);
  });
});
