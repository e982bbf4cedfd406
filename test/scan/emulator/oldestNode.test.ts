/**
 * `impact-service scan aws` on the oldest Node the package declares (engines: Node 20.19 and later;
 * the suite otherwise runs on the pinned Node 26), over 14 regions of a local fake endpoint
 * (test/support/fakeAws.ts) that holds the calls until every region's first one waits, so that
 * all regions' calls are in flight at once, whatever the machine's pace. On Node 20 the scan's one
 * abort signal, shared by those calls, got one listener per call and printed
 * `MaxListenersExceededWarning: Possible EventTarget memory leak detected. 11 abort listeners added
 * to [AbortSignal]` (issue 95, item 5): stderr says nothing but the scan's summary.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI_BUNDLE } from "../../support/bundle.js";
import { type FakeAws, startFakeAws } from "../../support/fakeAws.js";
import { EMULATOR_CREDENTIALS } from "../../support/moto.js";
import { declaredOldestNode, oldestNode } from "../../support/oldestNode.js";

const REGIONS = [
  "eu-west-3",
  "us-east-1",
  "eu-central-1",
  "eu-west-1",
  "eu-west-2",
  "us-east-2",
  "us-west-1",
  "us-west-2",
  "ap-south-1",
  "ap-northeast-1",
  "ap-southeast-1",
  "ca-central-1",
  "eu-north-1",
  "sa-east-1",
];
const PER_REGION = 3;

let fake: FakeAws;

beforeAll(async () => {
  fake = await startFakeAws({ instancesPerRegion: PER_REGION, holdUntil: REGIONS.length });
});

afterAll(async () => {
  await fake?.close();
});

describe("scan aws on the oldest Node the package declares", () => {
  it("reads 14 regions whose calls are in flight at once, with no warning on stderr", async () => {
    const node = oldestNode();
    expect(node.version.startsWith(`v${declaredOldestNode()[0]}.`)).toBe(true);
    const { stdout, stderr } = await promisify(execFile)(
      node.path,
      [CLI_BUNDLE, "scan", "aws", `--region=${REGIONS.join(",")}`, `--endpoint=${fake.url}`, "--metrics=-"],
      {
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          ...EMULATOR_CREDENTIALS,
          AWS_EC2_METADATA_DISABLED: "true",
          LOG_LEVEL: "silent",
        },
        maxBuffer: 16 * 1024 * 1024,
      },
    );
    // Every region's DescribeInstances was held until all 14 waited: they overlapped.
    expect(fake.asked.get("DescribeInstances")).toBe(REGIONS.length);
    expect(stderr).toBe(
      `impact-service: aws: ${REGIONS.length * PER_REGION} running instances and 0 volumes in ${REGIONS.join(", ")}, ${/\S+ \(1 h\)\n$/.exec(stderr)?.[0]}`,
    );
    expect(stderr).not.toMatch(/Warning|MaxListeners/);
    for (const region of REGIONS)
      expect(stdout).toContain(`boavizta_number_of_resources_assessed{awsregion="${region}"`);
  }, 120_000);
});
