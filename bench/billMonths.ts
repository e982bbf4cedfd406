/**
 * An account's months whose columns differ, joined at size (`npx tsx bench/billMonths.ts`): six
 * months of 1,000,000 generated CUR 2.0 lines each (scripts/billing-exports.ts), as Athena's
 * Parquet, each month's dates its own and its columns changed as a real CUR's change (a product
 * column gained and lost, a tag column gained each month, the usage amount typed as text in the
 * last), evaluated together by `impact-service evaluate` in a process of its own: wall and CPU
 * seconds and peak resident memory (GNU time), against the command's 1 GiB and the evaluate
 * page's 512 MiB (src/service/fileEvaluation.ts, runsMemoryBytes). Then one month alone, and 1,000
 * one-line parts in a folder. Prints the load average beside each figure.
 *
 * BILL_MONTHS (default 6) and BILL_MONTH_LINES (default 1,000,000) change the size; BILL_REPORT=1
 * writes the report too, as the page's runs do.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { writeBillingExport } from "../scripts/billing-exports.js";

const MONTHS = Number(process.env.BILL_MONTHS ?? 6);
const LINES = Number(process.env.BILL_MONTH_LINES ?? 1_000_000);
const BIN = new URL("../bin/impact-service.mjs", import.meta.url).pathname;
const scratch = mkdtempSync(join(tmpdir(), "bench-bill-months-"));

/** The command under GNU time: wall and CPU seconds, peak resident MB, exit status and stderr. */
function measured(args: readonly string[]) {
  const result = spawnSync("/usr/bin/time", ["-f", "%e %M %U %S", process.execPath, BIN, ...args], {
    encoding: "utf8",
    env: { ...process.env, EDITION: "2.4.1" },
    maxBuffer: 1 << 26,
  });
  const [seconds, kb, user, system] = (result.stderr.trim().split("\n").at(-1) ?? "").split(" ").map(Number);
  return {
    status: result.status,
    seconds,
    cpuSeconds: user + system,
    peakMb: Math.round(kb / 1024),
    said: result.stderr,
    load: loadavg()[0].toFixed(1),
  };
}

/** Each month: the generated bill's dates moved `index` months on, its columns changed as a CUR's change. */
async function writeMonths(): Promise<string[]> {
  const base = join(scratch, "base.parquet");
  await writeBillingExport("cur", LINES, base);
  const db = await DuckDBInstance.create(":memory:", { memory_limit: "500MB" });
  const connection = await db.connect();
  const described = await connection.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet('${base}')`);
  const types = new Map(
    described.getRowObjects().map((row) => [String(row.column_name), String(row.column_type)]),
  );
  const files: string[] = [];
  for (let index = 0; index < MONTHS; index += 1) {
    const moved = [...types]
      .filter(([name]) => name.endsWith("_date"))
      .map(([name, type]) =>
        type === "VARCHAR"
          ? `strftime(CAST(${name} AS TIMESTAMP) + INTERVAL ${index} MONTH, '%Y-%m-%dT%H:%M:%SZ') AS ${name}`
          : `${name} + INTERVAL ${index} MONTH AS ${name}`,
      );
    if (index === MONTHS - 1) moved.push("CAST(line_item_usage_amount AS VARCHAR) AS line_item_usage_amount");
    const added = [
      index < 2 ? "'3.1 GHz' AS product_clock_speed" : "'Compute' AS product_category",
      ...Array.from({ length: index }, (_, tag) => `'t${tag}' AS resource_tags_user_tag${tag}`),
    ];
    const month = new Date(Date.UTC(2026, 9 + index, 1)).toISOString().slice(0, 7);
    const file = join(scratch, `cur-${month}.parquet`);
    await connection.run(
      `COPY (SELECT * REPLACE (${moved.join(", ")}), ${added.join(", ")} FROM read_parquet('${base}'))
       TO '${file}' (FORMAT parquet, COMPRESSION zstd)`,
    );
    files.push(file);
  }
  connection.closeSync();
  db.closeSync();
  rmSync(base);
  return files;
}

/** A folder of `count` one-line parts of the first month, numbered. */
function partsFolder(count: number): string {
  const folder = join(scratch, `parts-${count}`);
  mkdirSync(folder);
  const [header, line] = readFileSync("test/fixtures/billing/months/cur-2026-04.csv", "utf8").split("\n");
  for (let index = 1; index <= count; index += 1) {
    writeFileSync(join(folder, `part-${String(index).padStart(5, "0")}.csv`), `${header}\n${line}\n`);
  }
  return folder;
}

function report(what: string, run: ReturnType<typeof measured>, lines: number): void {
  const within = `${run.peakMb <= 1024 ? "within" : "PAST"} 1 GiB, ${run.peakMb <= 512 ? "within" : "past"} the page's 512 MiB`;
  console.log(
    `${what}: exit ${run.status}, ${run.seconds} s wall, ${run.cpuSeconds.toFixed(1)} CPU s, peak ${run.peakMb} MB (${within}), ${lines.toLocaleString("en-US")} lines, load ${run.load}`,
  );
  if (run.status !== 0) console.log(run.said.split("\n").slice(-6).join("\n"));
}

try {
  const files = await writeMonths();
  const reportArgs = process.env.BILL_REPORT === "1" ? ["--report", join(scratch, "report.html")] : [];
  const joined = measured(["evaluate", ...files, "-o", join(scratch, "lines.csv.gz"), ...reportArgs]);
  report(`${MONTHS} months joined`, joined, MONTHS * LINES);
  console.log(
    joined.said
      .split("\n")
      .filter((line) => line.includes("columns"))
      .join("\n"),
  );
  report(
    "1 month alone",
    measured(["evaluate", files[0], "-o", join(scratch, "one.csv.gz"), ...reportArgs]),
    LINES,
  );
  report(
    "1,000 one-line parts",
    measured(["evaluate", partsFolder(1_000), "-o", join(scratch, "parts.csv")]),
    1_000,
  );
  report(
    "10,000 one-line parts (refused at the bound)",
    measured(["evaluate", partsFolder(10_000), "-o", join(scratch, "many.csv")]),
    0,
  );
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
