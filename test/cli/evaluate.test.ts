/**
 * `impact-service evaluate`: the example inventory evaluated in-process and on worker threads,
 * bad rows reported and skipped, totals equal to the batch route's for the same lines.
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { Writable } from "node:stream";
import { promisify } from "node:util";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { columnName, rowLine } from "../../src/cli/inventory.js";
import { main } from "../../src/cli/main.js";
import { createProgress } from "../../src/cli/progress.js";
import { send } from "../support/http.js";
import { startTestServer, type TestServer } from "../support/httpServer.js";

const INVENTORY = "examples/inventory.csv";

/** A stream that keeps what is written (stderr may claim to be a terminal). */
function sink(isTTY = false) {
  const chunks: string[] = [];
  const stream = Object.assign(
    new Writable({
      write(chunk, _encoding, done) {
        chunks.push(String(chunk));
        done();
      },
    }),
    { isTTY },
  ) as unknown as NodeJS.WriteStream;
  return { stream, text: () => chunks.join("") };
}

async function evaluate(args: string[], tty = false) {
  const stdout = sink();
  const stderr = sink(tty);
  const code = await main(args, { stdin: process.stdin, stdout: stdout.stream, stderr: stderr.stream });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

/** The example inventory's rows as batch lines (rows the CLI cannot convert stay bad lines). */
function inventoryAsBatch(): string {
  const rows = parse(readFileSync(INVENTORY), {
    columns: (header: string[]) => header.map(columnName),
  }) as Record<string, string>[];
  return rows
    .map((row) => {
      const line = rowLine(row);
      return "line" in line ? line.line : "not a request";
    })
    .join("\n");
}

describe("impact-service evaluate", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ LOG_LEVEL: "warn" });
  });
  afterAll(() => server.close());

  it("evaluates the example inventory: rows with their line, bad rows reported, totals as the batch route's", async () => {
    const { code, stdout, stderr } = await evaluate([
      "evaluate",
      INVENTORY,
      "--edition",
      "2.4.1",
      "--criteria",
      "gwp,pe",
    ]);
    expect(code).toBe(0);
    const lines = stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    const rows = lines.slice(0, -1);
    expect(rows.map((row) => row.line)).toEqual([2, 3, 4, 5, 6, 7, 8]);
    expect(rows.map((row) => row.quantity ?? 1)).toEqual([4, 2, 3, 1, 10, 2, 1]);
    expect(rows.every((row) => row.status === 200 && Object.keys(row.body.impacts).join() === "gwp,pe")).toBe(
      true,
    );
    expect(stderr).toContain("line 9: 404 no-such-instance at aws not found\n");
    expect(stderr).toContain('line 10: kind is not one of cloud, server: "laptop"\n');
    expect(stderr).toContain('line 11: hours is not a number: "many"\n');
    // Not a terminal: one summary line, no redrawn bar.
    expect(stderr).not.toContain("\r");
    expect(stderr).toMatch(
      /^examples\/inventory\.csv: 10 rows \(7 ok, 3 errors\) in [\d.]+ s, [\d,]+ rows\/s$/m,
    );

    const { summary } = lines[lines.length - 1];
    expect(summary).toMatchObject({ lines: 10, ok: 7, errors: 3 });
    // A row's answer is its single route's: the m5.xlarge row, asked of the route.
    const single = await send(server.port, {
      path: "/v1/cloud/instance?verbose=false&edition=2.4.1&criteria=gwp&criteria=pe",
      body: {
        provider: "aws",
        instance_type: "m5.xlarge",
        usage: { usage_location: "FRA", hours_use_time: 8760 },
      },
    });
    expect(JSON.stringify(rows[0].body)).toBe(single.text);
    // Σ quantity × value, by hand from the rows.
    const gwpEmbedded = rows.reduce(
      (sum, row) => sum + (row.quantity ?? 1) * row.body.impacts.gwp.embedded.value,
      0,
    );
    expect(summary.total.gwp.embedded).toBe(gwpEmbedded);

    // The same lines through POST /v1/batch: the same summary.
    const batch = await send(server.port, {
      path: "/v1/batch?edition=2.4.1",
      headers: { "content-type": "application/x-ndjson" },
      body: inventoryAsBatch().replaceAll("?verbose=false", "?verbose=false&criteria=gwp&criteria=pe"),
    });
    const answer = batch.text.trim().split("\n");
    expect(JSON.parse(answer[answer.length - 1]).summary).toEqual(summary);
  }, 60_000);

  it("gives the same answer on worker threads", async () => {
    const inProcess = await evaluate(["evaluate", INVENTORY, "--edition", "2.4.1"]);
    const pooled = await evaluate(["evaluate", INVENTORY, "--edition", "2.4.1", "--workers", "2"]);
    expect(pooled.code).toBe(0);
    expect(pooled.stdout).toBe(inProcess.stdout);
  }, 120_000);

  it("writes CSV: one column per criterion and phase, a row's values for all its units, a total row", async () => {
    const { code, stdout } = await evaluate([
      "evaluate",
      INVENTORY,
      "--edition",
      "2.4.1",
      "--format",
      "csv",
      "--criteria",
      "gwp",
    ]);
    expect(code).toBe(0);
    const [header, ...rest] = stdout.trim().split("\n");
    expect(header).toBe("line,quantity,gwp_embedded,gwp_use");
    const rows = rest.slice(0, -1).map((row) => row.split(","));
    const total = rest[rest.length - 1].split(",");
    expect(total[0]).toBe("total");
    expect(rows).toHaveLength(7);
    const sum = rows.reduce((acc, row) => acc + Number(row[2]), 0);
    expect(Number(total[2])).toBeCloseTo(sum, 6);
  }, 60_000);

  it("--strict stops at the first bad row with exit 1, after the rows before it", async () => {
    const { code, stdout, stderr } = await evaluate([
      "evaluate",
      INVENTORY,
      "--edition",
      "2.4.1",
      "--strict",
    ]);
    expect(code).toBe(1);
    expect(
      stdout
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line).line),
    ).toEqual([2, 3, 4, 5, 6, 7, 8]);
    expect(stderr).toContain("line 9: 404");
    expect(stderr).not.toContain("line 10:");
  }, 60_000);

  it("refuses a misuse with exit 2 and the usage", async () => {
    const unknown = await evaluate(["evaluate", INVENTORY, "--format", "xml"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("--format is ndjson or csv");
    const workers = await evaluate(["evaluate", INVENTORY, "--workers", "0"]);
    expect(workers.code).toBe(2);
    expect(workers.stderr).toContain("--workers is a whole number from 1 to 256");
    const option = await evaluate(["evaluate", INVENTORY, "--colour"]);
    expect(option.code).toBe(2);
    expect(option.stderr).toContain("--colour");
    const missing = await evaluate(["evaluate", "no/such/file.csv"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("no such file");
  });

  it("runs from the package's bin (what npx impact-service runs)", async () => {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ["bin/impact-service.mjs", "evaluate", INVENTORY, "--criteria", "gwp", "--format", "csv"],
      { env: { ...process.env, LOG_LEVEL: "silent" } },
    );
    expect(stdout.split("\n")[0]).toBe("line,quantity,gwp_embedded,gwp_use");
    expect(stdout).toContain("\ntotal,,");
    expect(stderr).toContain("line 9: 404");
  }, 60_000);
});

describe("progress", () => {
  it("draws a bar with the share read, rows/s and the time left on a terminal", () => {
    let now = 0;
    const out = sink(true);
    const progress = createProgress(out.stream, "fleet.csv", () => now);
    now = 2000;
    progress.update({ rows: 500, ok: 500, errors: 0, bytesRead: 250, totalBytes: 1000 });
    // Redrawn at most every 100 ms.
    now = 2050;
    progress.update({ rows: 510, ok: 510, errors: 0, bytesRead: 255, totalBytes: 1000 });
    now = 4000;
    progress.done({ rows: 1000, ok: 999, errors: 1, bytesRead: 1000, totalBytes: 1000 });
    expect(out.text()).toBe(
      `\rfleet.csv [######                  ] 25% 500 rows, 250 rows/s, ETA 6 s\u001b[K` +
        "\r\u001b[Kfleet.csv: 1,000 rows (999 ok, 1 errors) in 4.0 s, 250 rows/s\n",
    );
  });
});
