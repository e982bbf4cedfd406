/**
 * Edition 2.5.0 against the recorded answers of the rebuilt reference: the corpus
 * `test/fixtures/reference-2.5.0/corpus.jsonl.gz` (requests of every route family and boaviztapi
 * 2.5.0's answers to them, recorded by `scripts/differential.ts --record`; no code of the
 * reference) replayed through the in-memory app, each answer judged by the conformance rules
 * (scripts/differential/compare.ts). Where the reference failed, the service's answer below 500
 * agrees (docs/DEVIATIONS.md, "Edition 2.5.0"); the few cases that differ on purpose are listed
 * with the deviation they show.
 */
import { describe, expect, it } from "vitest";
import { type Answer, agrees, judge } from "../../scripts/differential/compare.js";
import { FAMILIES } from "../../scripts/differential/requests.js";
import { nudgedBodies } from "../../scripts/differential/stability.js";
import { sharedApp } from "../support/app.js";
import { type RecordedCase, recordedCases, recordedRequest } from "../support/referenceCorpus.js";

const cases = recordedCases();

/** Recorded cases that differ on purpose, each with the deviation it shows (docs/DEVIATIONS.md). */
const KEPT: Readonly<Record<string, string>> = {
  "server-0250": "a use_time_ratio past the service's bound: 422 (Bounds the reference does not have)",
  "iot-1550": "a negative duration: 422 naming it (Bounds the reference does not have)",
  "consumption_profile-0050":
    "a fit of 2 points ends elsewhere (Cannot be reproduced exactly: fitted profiles)",
  "consumption_profile-1050":
    "a degenerate fit, c on its bound 0 (Cannot be reproduced exactly: fitted profiles)",
};

const app = sharedApp();

async function served(recorded: RecordedCase): Promise<Answer> {
  const answer = await app.rest(recordedRequest(recorded, "edition=2.5.0"));
  return { status: answer.status, body: answer.body };
}

describe("edition 2.5.0 replays the rebuilt reference's recorded answers", () => {
  it("holds cases of every route family", () => {
    expect(new Set(cases.map((c) => c.group))).toEqual(new Set(FAMILIES));
    expect(cases.length).toBeGreaterThanOrEqual(8 * 30);
  });

  for (const family of FAMILIES) {
    it(`${family}: every answer agrees with the reference's`, async () => {
      const failures: string[] = [];
      for (const recorded of cases.filter((c) => c.group === family)) {
        const verdict = judge({ status: recorded.status, body: recorded.response }, await served(recorded));
        if (!agrees(verdict) && KEPT[recorded.id] === undefined) {
          failures.push(
            `${recorded.id} ${recorded.method} ${recorded.path}: ${JSON.stringify(verdict).slice(0, 400)}`,
          );
        }
      }
      expect(failures).toEqual([]);
    });
  }

  it("the kept differences still differ (a fixed one leaves the list)", async () => {
    for (const [id] of Object.entries(KEPT)) {
      const recorded = cases.find((c) => c.id === id);
      expect(recorded, id).toBeDefined();
      if (recorded === undefined) continue;
      const verdict = judge({ status: recorded.status, body: recorded.response }, await served(recorded));
      expect(agrees(verdict), id).toBe(false);
    }
  });
});

describe("the harness's probe of the reference's stability", () => {
  it("moves every workload power, then every load, one double up and down, nothing else", () => {
    const body = {
      cpu: { tdp: 46 },
      workload: [{ load_percentage: 22, power_watt: 107.9 }, { load_percentage: 63 }],
    };
    const nudges = nudgedBodies(body);
    expect(nudges.map((n) => n.probe)).toEqual([
      "power_watt +1 ulp",
      "power_watt −1 ulp",
      "load_percentage +1 ulp",
      "load_percentage −1 ulp",
    ]);
    expect(nudges[0].body).toEqual({
      cpu: { tdp: 46 },
      workload: [{ load_percentage: 22, power_watt: 107.90000000000002 }, { load_percentage: 63 }],
    });
    expect(nudges[1].body).toEqual({
      cpu: { tdp: 46 },
      workload: [{ load_percentage: 22, power_watt: 107.89999999999999 }, { load_percentage: 63 }],
    });
    expect(nudges[3].body).toEqual({
      cpu: { tdp: 46 },
      workload: [
        { load_percentage: 21.999999999999996, power_watt: 107.9 },
        { load_percentage: 62.99999999999999 },
      ],
    });
    expect(body.workload[0].power_watt).toBe(107.9);
  });

  it("has nothing to probe without workload points", () => {
    expect(nudgedBodies({ cpu: { tdp: 46 } })).toEqual([]);
    expect(nudgedBodies({ workload: [] })).toEqual([]);
    expect(nudgedBodies(null)).toEqual([]);
  });
});
