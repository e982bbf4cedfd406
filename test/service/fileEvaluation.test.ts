/**
 * File evaluation as a use case (src/service/fileEvaluation.ts), through a fake runner (its port,
 * src/service/fileEvaluation/evaluationRunner.ts): what it asks of the run (the options, the names of the
 * files), what it answers for each way a run ends (its events, byte for byte), the refusals before
 * a run (the receiving's, a workbook past its bounds, no command), and that the slot and the run's
 * place are given back whatever ends the evaluation. No process is started.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { Readable } from "node:stream";
import { gunzipSync, gzipSync } from "node:zlib";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import {
  createFileEvaluator,
  type FileEvent,
  type FileReceiver,
  FileRefusal,
  type FileRunner,
  type RunOptions,
  type RunOutcome,
  type RunProgress,
  type StartedRun,
} from "../../src/service/fileEvaluation.js";
import { repeatedPart, zipOf } from "../support/hostileFiles.js";

const work = mkdtempSync(join(tmpdir(), "file-evaluation-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
afterEach(() => {
  vi.useRealTimers();
});

const ACCEPTED = { editions: ["2.4.1", "2.5.0"], criteria: ["gwp", "adp", "pe"] };

/** What the fake runner was asked and did, for the assertions. */
interface Seen {
  places: number;
  removed: number;
  started: { options: RunOptions; signal: AbortSignal }[];
  closed: number;
  released: number;
}

/** A run the test ends: its outcome settled by `end`, its progress set by `tell`, its files given. */
function fakeRun(record: Seen, files: { output?: Buffer; report?: Buffer }) {
  let end: (outcome: RunOutcome) => void = () => {};
  const outcome = new Promise<RunOutcome>((resolve) => {
    end = resolve;
  });
  let progress: RunProgress = {};
  const stages: RunProgress[] = [];
  const run: StartedRun = {
    outcome,
    progress: () => progress,
    stages: () => stages,
    written: async (role) => {
      const bytes = files[role];
      return bytes === undefined ? null : Readable.from([bytes]);
    },
    close: async () => {
      record.closed += 1;
    },
  };
  return {
    run,
    end: (ended: RunOutcome) => end(ended),
    tell: (told: RunProgress) => {
      if (told.stage !== progress.stage) stages.push(told);
      progress = told;
    },
  };
}

/** A runner whose places are files of the test's folder and whose run is `run`. */
function fakeRunner(record: Seen, run: StartedRun | null): FileRunner {
  return {
    command: "a fake runner",
    admit: () => ({
      release: () => {
        record.released += 1;
      },
    }),
    open: async (input) => {
      if (run === null) throw new FileRefusal(503, "the command line is not installed beside this service");
      record.places += 1;
      const file = join(mkdtempSync(join(work, "place-")), input);
      return {
        file,
        start: (options, ties) => {
          record.started.push({ options, signal: ties.signal });
          return run;
        },
        remove: async () => {
          record.removed += 1;
        },
      };
    },
  };
}

const newRecord = (): Seen => ({ places: 0, removed: 0, started: [], closed: 0, released: 0 });

/** The received file is `bytes`, written where the use case says. */
const receiving =
  (bytes: Buffer): FileReceiver =>
  async (path) => {
    writeFileSync(path, bytes);
  };

async function eventsOf(events: AsyncGenerator<FileEvent>): Promise<FileEvent[]> {
  const all: FileEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

/** An evaluation of `name` (and the query's other values) through a fake run. */
async function evaluated(query: string, files: { output?: Buffer; report?: Buffer } = {}) {
  const record = newRecord();
  const fake = fakeRun(record, files);
  const evaluator = createFileEvaluator({ runner: fakeRunner(record, fake.run), accepted: ACCEPTED });
  const request = evaluator.requestOf(new URLSearchParams(query));
  const slot = evaluator.admit("client");
  if (slot instanceof FileRefusal) throw slot;
  const client = new AbortController();
  const events = await evaluator.evaluate(request, receiving(Buffer.from("a,b\n1,2\n")), client.signal, slot);
  return { record, fake, events, client };
}

describe("a file's evaluation, through its runner", () => {
  it("asks the run for the request's options, the CSV output written gzipped, and names its files by the file's", async () => {
    const { record, fake, events } = await evaluated("name=my servers.csv&edition=2.4.1&criteria=gwp,pe", {
      output: gzipSync("id,gwp\n1,2\n"),
      report: Buffer.from("<html>report</html>"),
    });
    expect(record.started.map(({ options }) => options)).toEqual([
      {
        output: "my_servers-impacts.csv.gz",
        request: { name: "my servers.csv", edition: "2.4.1", criteria: ["gwp", "pe"], format: "csv" },
      },
    ]);
    fake.end({ ended: "ran", exitCode: 0, summary: "my_servers.csv: 1 rows (1 ok)\n" });
    expect(await eventsOf(events)).toEqual([
      {
        event: "file",
        role: "report",
        name: "my_servers-report.html",
        type: "text/html",
        data: Buffer.from("<html>report</html>").toString("base64"),
      },
      {
        event: "file",
        role: "output",
        name: "my_servers-impacts.csv",
        type: "text/csv",
        data: gzipSync("id,gwp\n1,2\n").toString("base64"),
        encoding: "gzip",
      },
      { event: "done", exitCode: 0, summary: "my_servers.csv: 1 rows (1 ok)\n" },
    ]);
    // The run is closed once its events end; the slot is the run's to give back (the runner's).
    expect(record.closed).toBe(1);
    expect(record.released).toBe(0);
  });

  it("gzips an output the run wrote as it is (a workbook), and sends no report the run did not write", async () => {
    const workbook = Buffer.from("PK\u0003\u0004 a workbook's bytes");
    const { fake, events, record } = await evaluated("name=fleet.xlsx&format=xlsx", { output: workbook });
    expect(record.started[0]?.options.output).toBe("fleet-impacts.xlsx");
    fake.end({ ended: "ran", exitCode: 1, summary: "every row failed\n" });
    const answer = await eventsOf(events);
    const files = answer.flatMap((event) => (event.event === "file" ? [event] : []));
    expect(new Set(files.map(({ data, ...file }) => JSON.stringify(file)))).toEqual(
      new Set([
        JSON.stringify({
          event: "file",
          role: "output",
          name: "fleet-impacts.xlsx",
          type: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
          encoding: "gzip",
        }),
      ]),
    );
    // The parts in order are the gzip of the file as the run wrote it
    const parts = files.map(({ data }) => Buffer.from(data, "base64"));
    expect(gunzipSync(Buffer.concat(parts))).toEqual(workbook);
    expect(answer.slice(files.length).map((event) => event.event)).toEqual(["done"]);
    expect(answer.at(-1)).toEqual({ event: "done", exitCode: 1, summary: "every row failed\n" });
  });

  it("answers a run stopped by a bound with its sentence and `bound`, a refusal of the file without", async () => {
    const stopped = await evaluated("name=bill.csv");
    stopped.fake.end({ ended: "stopped", refusal: "the run took longer than 120 s (the page's bound)" });
    expect(await eventsOf(stopped.events)).toEqual([
      { event: "refused", message: "the run took longer than 120 s (the page's bound)", bound: true },
    ]);
    const refused = await evaluated("name=bill.csv", { output: Buffer.from("never sent") });
    refused.fake.end({ ended: "refused", refusal: "not an inventory nor a billing export" });
    expect(await eventsOf(refused.events)).toEqual([
      { event: "refused", message: "not an inventory nor a billing export" },
    ]);
    expect([stopped.record.closed, refused.record.closed]).toEqual([1, 1]);
  });

  it("tells the run's progress each second while it runs", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "Date"] });
    const { fake, events } = await evaluated("name=bill.csv");
    fake.tell({ stage: "classifying the lines", lines: 3, done: 0.5 });
    const first = events.next();
    await vi.advanceTimersByTimeAsync(1_000);
    expect((await first).value).toEqual({
      event: "running",
      seconds: 1,
      stage: "classifying the lines",
      lines: 3,
      done: 0.5,
    });
    const next = events.next();
    fake.end({ ended: "stopped", refusal: "stopped" });
    expect((await next).value).toEqual({ event: "refused", message: "stopped", bound: true });
  });

  it("tells each stage a run reached, in order, though it ended within a heartbeat", async () => {
    const { fake, events } = await evaluated("name=bill.csv", { output: Buffer.from("lines") });
    fake.tell({ stage: "reading the export", done: 0 });
    fake.tell({ stage: "telling its lines apart", done: 0.25 });
    fake.tell({ stage: "looking up their impacts", lines: 40, done: 0.5 });
    fake.tell({ stage: "writing the lines", lines: 40, done: 0.75 });
    fake.tell({ stage: "writing the lines", lines: 42, done: 0.75 });
    fake.end({ ended: "ran", exitCode: 0, summary: "42 lines" });
    const said = await eventsOf(events);
    expect(said.filter((event) => event.event === "running")).toEqual([
      { event: "running", seconds: 0, stage: "reading the export", done: 0 },
      { event: "running", seconds: 0, stage: "telling its lines apart", done: 0.25 },
      { event: "running", seconds: 0, stage: "looking up their impacts", lines: 40, done: 0.5 },
      // The last stage as it stands at the end
      { event: "running", seconds: 0, stage: "writing the lines", lines: 42, done: 0.75 },
    ]);
    expect(said.map((event) => event.event)).toEqual([
      "running",
      "running",
      "running",
      "running",
      "file",
      "done",
    ]);
  });

  it("says nothing more once its client has gone, and closes the run", async () => {
    const { fake, events, client, record } = await evaluated("name=bill.csv", { output: Buffer.from("x") });
    expect(record.started[0]?.signal.aborted).toBe(false);
    client.abort();
    // The runner's run is tied to the signal the use case gave it: the client's.
    expect(record.started[0]?.signal.aborted).toBe(true);
    fake.end({ ended: "ran", exitCode: 0, summary: "" });
    expect(await eventsOf(events)).toEqual([]);
    expect(record.closed).toBe(1);
  });

  it("ties each run to the service's stopping as to its client's leaving", async () => {
    const record = newRecord();
    const stopping = new AbortController();
    const fake = fakeRun(record, {});
    const evaluator = createFileEvaluator({
      runner: fakeRunner(record, fake.run),
      accepted: ACCEPTED,
      stopping: stopping.signal,
    });
    const slot = evaluator.admit("client");
    if (slot instanceof FileRefusal) throw slot;
    const request = evaluator.requestOf(new URLSearchParams("name=a.csv"));
    await evaluator.evaluate(request, receiving(Buffer.from("a\n")), new AbortController().signal, slot);
    stopping.abort();
    expect(record.started[0]?.signal.aborted).toBe(true);
  });
});

describe("a file's refusals before its run", () => {
  /** The refusal of an evaluation whose receiving does `receive`, and what the runner saw. */
  async function refusedEvaluation(name: string, receive: FileReceiver, runner: "none" | "fake" = "fake") {
    const record = newRecord();
    const fake = fakeRun(record, {});
    const evaluator = createFileEvaluator({
      runner: fakeRunner(record, runner === "none" ? null : fake.run),
      accepted: ACCEPTED,
    });
    const slot = evaluator.admit("client");
    if (slot instanceof FileRefusal) throw slot;
    const request = evaluator.requestOf(new URLSearchParams(`name=${name}`));
    const refusal = await evaluator.evaluate(request, receive, new AbortController().signal, slot).then(
      () => null,
      (error: unknown) => error,
    );
    return { refusal, record };
  }

  it("refuses what the receiving refuses: no run, the slot given back, the place removed", async () => {
    const { refusal, record } = await refusedEvaluation("bill.csv", async () => {
      throw new FileRefusal(413, "the file has more than 200,000 lines (the page's bound)");
    });
    expect(refusal).toEqual(new FileRefusal(413, "the file has more than 200,000 lines (the page's bound)"));
    expect(record).toMatchObject({ places: 1, removed: 1, started: [], released: 1 });
  });

  it("refuses a workbook whose directory says its parts are past their bound, before any run", async () => {
    // One part declared 600 MiB unpacked (the workbook's bound for all its parts is 512 MiB)
    const sheet = repeatedPart(
      "xl/worksheets/sheet1.xml",
      { head: "<worksheet>", unit: " ", times: 1, tail: "</worksheet>" },
      600 * 1024 * 1024,
    );
    const { refusal, record } = await refusedEvaluation("fleet.xlsx", receiving(zipOf([sheet])));
    expect(refusal).toBeInstanceOf(FileRefusal);
    expect((refusal as FileRefusal).status).toBe(413);
    expect((refusal as FileRefusal).message).toMatch(
      /629,145,600 bytes unpacked, more than .*a workbook's bound/,
    );
    expect(record).toMatchObject({ places: 1, removed: 1, started: [], released: 1 });
  });

  it("refuses every file when the runner has no command to run (503), the slot given back", async () => {
    let received = false;
    const { refusal, record } = await refusedEvaluation(
      "bill.csv",
      async () => {
        received = true;
      },
      "none",
    );
    expect(refusal).toEqual(new FileRefusal(503, "the command line is not installed beside this service"));
    expect(received).toBe(false);
    expect(record).toMatchObject({ places: 0, released: 1 });
  });

  it("checks the request's values against what the service serves, naming the parameter", () => {
    const evaluator = createFileEvaluator({ runner: fakeRunner(newRecord(), null), accepted: ACCEPTED });
    const refusalOf = (query: string) => {
      try {
        evaluator.requestOf(new URLSearchParams(query));
        return null;
      } catch (error) {
        return error;
      }
    };
    expect(refusalOf("name=a.csv&edition=1.2.4")).toEqual(
      new FileRefusal(422, 'edition: "1.2.4" is not an edition this service serves (2.4.1, 2.5.0)'),
    );
    expect(refusalOf("name=a.rar")).toBeInstanceOf(FileRefusal);
    expect(refusalOf("name=months.zip")).toBeNull();
    expect(evaluator.command).toBe("a fake runner");
  });
});

it("writes the received file where the runner's place says", async () => {
  const record = newRecord();
  const fake = fakeRun(record, {});
  let where = "";
  const runner = fakeRunner(record, fake.run);
  const evaluator = createFileEvaluator({ runner, accepted: ACCEPTED });
  const slot = evaluator.admit("client");
  if (slot instanceof FileRefusal) throw slot;
  await evaluator.evaluate(
    evaluator.requestOf(new URLSearchParams("name=../../etc/passwd.csv")),
    async (path) => {
      where = path;
      writeFileSync(path, "a\n");
    },
    new AbortController().signal,
    slot,
  );
  // The file's own name, its separators and leading dots gone: never a path out of the place.
  expect(dirname(where).startsWith(work)).toBe(true);
  expect(basename(where)).toBe("_.._etc_passwd.csv");
  expect(readFileSync(where, "utf8")).toBe("a\n");
});
