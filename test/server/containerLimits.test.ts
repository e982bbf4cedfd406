/**
 * The service as it ships, in its container's limits, against hostile uploads to the /evaluate
 * page (issue 62): the server's bundle with `npm start`'s node flags in a memory cgroup of
 * compose.yaml's limit, its `TMPDIR` on a tmpfs of compose.yaml's `/tmp` size (whose pages count
 * in the cgroup, as in the container), then on a folder of the disk (the Deployment's `emptyDir`).
 * No container engine runs here or in CI: the limits are applied by test/support/containerLimits.ts.
 * Every hostile file is made here, small on disk (test/support/hostileFiles.ts). For each: the
 * service survives, answers a 4xx or 503 naming the field or the bound, leaves no run folder,
 * and the cgroup's processes are never killed for memory. Every wait is on an answer, an event
 * or the folder's content, never a duration.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { serviceArguments, serviceVariables } from "../../bench/serviceCommand.js";
import { EDITION_IDS } from "../../src/editions/index.js";
import { folderBytes } from "../../src/evaluationProcess/runFolder.js";
import { FILE_EVALUATION_BOUNDS } from "../../src/service/fileEvaluation.js";
import { CLI_BUNDLE, SERVER_BUNDLE } from "../support/bundle.js";
import { connectFrom, firstLine, postFrom } from "../support/clientAddress.js";
import { type Contained, containerLimits } from "../support/containerLimits.js";
import { gridSeriesGzip, sharedStringsWorkbook, spacesWorkbook } from "../support/hostileFiles.js";
import { portOf, startService } from "../support/process.js";

const WAIT_MS = 240_000;
const FOCUS = "test/fixtures/billing/focus-whole-bill.csv";
/** A run lasting seconds past its first `running` event (150,000 rows). */
const LONG_RUN = `kind,usage_location,quantity\n${"server,FRA,1\n".repeat(150_000)}`;
const MiB = 1024 * 1024;
const BUSY = "as many files as the service evaluates at once are running: try again in a minute";

/** The 3 GiB-of-spaces workbook, made once for both layouts (its CRC over 3 GiB: a second of CPU). */
let spaces: Buffer | undefined;
const spacesOnce = () => {
  spaces ??= spacesWorkbook();
  return spaces;
};

/** npm start's node flags (package.json, the image's entry point), on the tests' build of the bundle. */
const SHIPPED = [
  process.execPath,
  ...serviceArguments().filter((part) => part.startsWith("--")),
  SERVER_BUNDLE,
];

/** The service in the limits, and what it answers. */
function contained(tmp: "tmpfs" | "disk") {
  const limits = containerLimits(tmp);
  const service = startService({ ...serviceVariables(), TMPDIR: limits.tmp }, limits.command(SHIPPED));
  return { limits, service };
}

/** The service and its children killed, then the limits removed (a cgroup is removed empty). */
async function ended(service: ReturnType<typeof startService> | undefined, limits: Contained | undefined) {
  service?.killAll();
  await service?.exited;
  if (limits) await vi.waitFor(() => limits.release(), { timeout: WAIT_MS, interval: 50 });
}

const runFolders = (limits: Contained) =>
  readdirSync(limits.tmp).filter((name) => name.startsWith("impact-evaluate-"));

/** The events of a run's answer. */
async function events(
  text: string,
): Promise<{ event: string; message?: string; summary?: string; exitCode?: number }[]> {
  return text
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
}

describe("the service in compose.yaml's limits: 1 GiB of memory, /tmp a 1 GiB tmpfs", () => {
  let limits: Contained;
  let service: ReturnType<typeof startService>;
  let port: number;
  const post = (from: string, query: string, body: string | Buffer) =>
    postFrom(from, port, `/v1/evaluate?${query}`, body);

  beforeAll(async () => {
    ({ limits, service } = contained("tmpfs"));
    port = portOf((await service.waitFor(/^listening on /))[0]);
  }, WAIT_MS);

  afterAll(() => ended(service, limits), WAIT_MS);

  it(
    "refuses the 3 GiB-of-spaces workbook (3.1 MB) from its directory: 413 naming the bound, nothing unpacked",
    async () => {
      const answer = await post("127.0.0.2", "name=b.xlsx", spacesOnce());
      expect(answer.status).toBe(413);
      expect(JSON.parse(await answer.text())).toEqual({
        detail:
          "the workbook's parts hold 3,221,226,643 bytes unpacked, more than 536,870,912 (a workbook's bound): save the sheet as CSV UTF-8",
      });
      expect(runFolders(limits)).toEqual([]);
    },
    WAIT_MS,
  );

  it(
    "refuses 6×10^7 shared strings (2.5 MB) from the directory, and 2×10^6 compact ones as they stream",
    async () => {
      const large = await post("127.0.0.2", "name=s.xlsx", sharedStringsWorkbook(60_000_000));
      expect(large.status).toBe(413);
      expect(await large.text()).toContain("bytes unpacked, more than 536,870,912 (a workbook's bound)");
      const many = await post("127.0.0.2", "name=s.xlsx", sharedStringsWorkbook(2_000_000, "<si><t/></si>"));
      expect(many.status).toBe(200);
      expect((await events(await many.text())).at(-1)).toEqual({
        event: "refused",
        message:
          "the workbook holds more than 1,000,000 shared strings (a workbook's bound): save the sheet as CSV UTF-8",
      });
      await vi.waitFor(() => expect(runFolders(limits)).toEqual([]), { timeout: WAIT_MS, interval: 50 });
    },
    WAIT_MS,
  );

  it.each([
    ["edition=-h", `edition: "-h" is not an edition this service serves (${EDITION_IDS.join(", ")})`],
    [
      "criteria=--help",
      'criteria: "--help" is not a criterion this service knows (docs/api.md lists them, e.g. gwp, adp, pe)',
    ],
    [
      "criteria=gwp,-o",
      'criteria: "-o" is not a criterion this service knows (docs/api.md lists them, e.g. gwp, adp, pe)',
    ],
  ])("refuses an option through the query (%s): 422 naming the field", async (query, detail) => {
    const answer = await post("127.0.0.2", `name=x.csv&${query}`, "kind,quantity\nserver,1\n");
    expect(answer.status).toBe(422);
    expect(JSON.parse(await answer.text())).toEqual({ detail });
    expect(runFolders(limits)).toEqual([]);
  });

  it(
    "reads a FOCUS export whose header holds a quoted line break as the bill it is",
    async () => {
      const [header, ...rows] = readFileSync(FOCUS, "utf8").trim().split("\n");
      const bill = `${header},"x_Note\n(free text)"\n${rows.map((row) => `${row},n`).join("\n")}\n`;
      const answer = await post("127.0.0.2", "name=bill.csv&criteria=gwp", bill);
      const done = (await events(await answer.text())).at(-1);
      expect(done).toMatchObject({ event: "done", exitCode: 0 });
      expect(done?.summary).toContain("billing export bill.csv: FOCUS 1.0–1.2");
      await vi.waitFor(() => expect(runFolders(limits)).toEqual([]), { timeout: WAIT_MS, interval: 50 });
    },
    WAIT_MS,
  );

  it(
    "gives a client one slot: its second file waits, another client's runs",
    async () => {
      const first = await post("127.0.0.3", "name=servers.csv&criteria=gwp", LONG_RUN);
      expect(await firstLine(first)).toMatch(/^\{"event":"running"/);
      const second = await post("127.0.0.3", "name=servers.csv&criteria=gwp", "kind,quantity\nserver,1\n");
      expect(second.status).toBe(503);
      expect(second.headers["retry-after"]).toBe("10");
      expect(JSON.parse(await second.text()).detail).toMatch(
        /^this client has a file being evaluated already/,
      );
      const other = await post("127.0.0.4", "name=servers.csv&criteria=gwp", "kind,quantity\nserver,1\n");
      expect((await events(await other.text())).at(-1)).toMatchObject({ event: "done", exitCode: 0 });
      first.body.destroy();
      await vi.waitFor(() => expect(runFolders(limits)).toEqual([]), { timeout: WAIT_MS, interval: 50 });
    },
    WAIT_MS,
  );

  it(
    "ends two slow clients' uploads at the page's pace (408), then admits an ordinary upload",
    async () => {
      const { minUploadBytes, uploadWindowMs } = FILE_EVALUATION_BOUNDS;
      const sized = await connectFrom("127.0.0.5", port);
      sized.send("POST /v1/evaluate?name=a.csv HTTP/1.1\r\nhost: x\r\ncontent-length: 10000000\r\n\r\nki");
      const chunked = await connectFrom("127.0.0.6", port);
      chunked.send(
        "POST /v1/evaluate?name=b.csv HTTP/1.1\r\nhost: x\r\ntransfer-encoding: chunked\r\n\r\n2\r\nki\r\n",
      );
      // Both slots held: an ordinary upload is told to come back.
      await vi.waitFor(() => expect(runFolders(limits)).toHaveLength(2), { timeout: WAIT_MS, interval: 20 });
      const refused = await post("127.0.0.7", "name=c.csv&criteria=gwp", "kind,quantity\nserver,1\n");
      expect([refused.status, JSON.parse(await refused.text()).detail]).toEqual([503, BUSY]);
      const slow = `the upload sent less than ${minUploadBytes / 1024} KiB in ${uploadWindowMs / 1000} s (the page's bound): send the file again from a faster connection`;
      for (const client of [sized, chunked]) {
        const answer = await client.answer;
        expect(answer).toMatch(/^HTTP\/1\.1 408 /);
        expect(answer).toContain(JSON.stringify({ detail: slow }));
      }
      expect(runFolders(limits)).toEqual([]);
      const admitted = await post("127.0.0.7", "name=c.csv&criteria=gwp", "kind,quantity\nserver,1\n");
      expect((await events(await admitted.text())).at(-1)).toMatchObject({ event: "done", exitCode: 0 });
    },
    WAIT_MS,
  );

  it(
    "answers a 19 MB upload finding both slots taken with its 503, the body read: no broken pipe",
    async () => {
      const running = await Promise.all([
        post("127.0.0.8", "name=servers.csv&criteria=gwp", LONG_RUN),
        post("127.0.0.9", "name=servers.csv&criteria=gwp", LONG_RUN),
      ]);
      for (const answer of running) expect(await firstLine(answer)).toMatch(/^\{"event":"running"/);
      // A client reading while it sends (a browser): 1 MiB, then the rest once the answer begins.
      const large = await connectFrom("127.0.0.10", port);
      large.send(`POST /v1/evaluate?name=big.csv HTTP/1.1\r\nhost: x\r\ncontent-length: ${19 * MiB}\r\n\r\n`);
      large.send("a".repeat(MiB));
      await large.received(/\r\n\r\n\{"detail":"[^"]*"\}/);
      expect(large.text()).toMatch(/^HTTP\/1\.1 503 /);
      expect(large.text()).toContain(JSON.stringify({ detail: BUSY }));
      // The rest of its 19 MiB is read (and dropped): sent whole, no reset, no broken pipe.
      await new Promise<void>((resolve, reject) =>
        large.socket.write(Buffer.alloc(18 * MiB, "a"), (error) => (error ? reject(error) : resolve())),
      );
      await vi.waitFor(() => expect(large.socket.writableLength).toBe(0), { timeout: WAIT_MS, interval: 20 });
      expect(large.socket.destroyed).toBe(false);
      large.socket.destroy();
      for (const answer of running) answer.body.destroy();
      await vi.waitFor(() => expect(runFolders(limits)).toEqual([]), { timeout: WAIT_MS, interval: 50 });
    },
    WAIT_MS,
  );

  it(
    "stops counting 10^8 grid intervals at the bound: the command, in the same limits, exit 2",
    async () => {
      const series = join(limits.tmp, "series.csv.gz");
      writeFileSync(series, gridSeriesGzip(100_000_000));
      const inventory = join(limits.tmp, "inventory.csv");
      writeFileSync(inventory, "kind,usage_location\nserver,FRA\n");
      const [file, ...args] = limits.command([
        process.execPath,
        CLI_BUNDLE,
        "evaluate",
        inventory,
        "--grid-intensity",
        series,
      ]);
      const command = spawn(file, args, { stdio: ["ignore", "ignore", "pipe"] });
      let stderr = "";
      command.stderr.on("data", (part) => {
        stderr += part;
      });
      const [code] = await once(command, "close");
      expect([code, stderr]).toEqual([
        2,
        `impact-service: ${series}: a grid intensity series holds at most 2000000 intervals; it holds more (read up to the bound)\n`,
      ]);
    },
    WAIT_MS,
  );

  it("survived every case: alive, no process of its group killed for memory, no run folder left", async () => {
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(health.status).toBe(200);
    expect(service.child.exitCode).toBeNull();
    expect(limits.oomKills(), `peak ${limits.peakBytes()} bytes`).toBe(0);
    expect(runFolders(limits)).toEqual([]);
    expect(service.errors).toEqual([]);
  });
});

describe("the service in the Deployment's layout: /tmp on the disk (its emptyDir)", () => {
  let limits: Contained;
  let service: ReturnType<typeof startService>;
  let port: number;

  beforeAll(async () => {
    ({ limits, service } = contained("disk"));
    port = portOf((await service.waitFor(/^listening on /))[0]);
  }, WAIT_MS);

  afterAll(() => ended(service, limits), WAIT_MS);

  it(
    "keeps the run folder of the 3 GiB-of-spaces workbook to its upload: 413, nothing unpacked, far under the run's bytes",
    async () => {
      let largest = 0;
      const watching = setInterval(async () => {
        largest = Math.max(largest, await folderBytes(limits.tmp));
      }, 5);
      const answer = await postFrom("127.0.0.2", port, "/v1/evaluate?name=b.xlsx", spacesOnce());
      clearInterval(watching);
      expect(answer.status).toBe(413);
      expect(await answer.text()).toContain("(a workbook's bound)");
      expect(largest).toBeLessThan(FILE_EVALUATION_BOUNDS.runFolderBytes);
      expect(runFolders(limits)).toEqual([]);
      expect(limits.oomKills()).toBe(0);
    },
    WAIT_MS,
  );
});
