/**
 * The largest custom edition the service accepts at the shipped heap (npm start's and the image's
 * `--max-old-space-size=768`), for `npm run bench`: for each shape of data folder — one cloud table of
 * MAX_CUSTOM_DATA_ROWS short rows, a server table filling MAX_CUSTOM_DATA_BYTES, a factors.yml
 * filling MAX_CUSTOM_YAML_BYTES, a factors.json filling MAX_CUSTOM_DATA_BYTES — the built service starts on it (or is refused one row or one
 * byte past the bound), answers a request of that edition, and its peak resident memory and
 * start-up time are printed. Not a test: figures for bench/README.md. `BENCH_CUSTOM_SHAPES`
 * (comma-separated: rows,server,factors,factors-json,all) runs some shapes only.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stringify } from "yaml";
import { DEFAULT_DATA_BOUNDS } from "../src/data/folder.js";
import { serviceArguments, shippedHeapMb } from "./serviceCommand.js";

const root = new URL("..", import.meta.url);
const HEAP_MB = shippedHeapMb();
const { maxBytes, maxRows, maxYamlBytes } = DEFAULT_DATA_BOUNDS;

/** Peak resident memory of a process so far (VmHWM), in MB. */
function peakMb(pid: number): number {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return match ? Number(match[1]) / 1024 : Number.NaN;
}

/** A data folder of one shape, `extra` rows or bytes past its bound when asked. */
interface Shape {
  readonly name: string;
  readonly what: string;
  /** Writes the folder; returns what it holds (rows, bytes) for the report. */
  readonly write: (dir: string, past: boolean) => string;
  /** A request answered from the custom data. */
  readonly probe: string;
}

/** `lines` made by `line(i)` until `count` lines or `bytes` bytes, whichever comes first. */
function filled(header: string, line: (index: number) => string, count: number, bytes: number): string {
  const parts = [header];
  let size = Buffer.byteLength(header);
  for (let index = 0; index < count; index++) {
    const next = line(index);
    if (size + Buffer.byteLength(next) > bytes) break;
    parts.push(next);
    size += Buffer.byteLength(next);
  }
  return parts.join("");
}

const SERVER_ROW = readFileSync(new URL("data/2.4.1/archetypes/server.csv", root), "utf8").split("\n")[1];
const SERVER_HEADER = readFileSync(new URL("data/2.4.1/archetypes/server.csv", root), "utf8").split("\n")[0];

/** A server table of `rows` 2.4.1 rows within `bytes`; returns its text. */
function serverTable(dir: string, rows: number, bytes: number): string {
  mkdirSync(join(dir, "archetypes"), { recursive: true });
  const body = SERVER_ROW.slice(SERVER_ROW.indexOf(","));
  const text = filled(`${SERVER_HEADER}\n`, (i) => `server_${i}${body}\n`, rows, bytes);
  writeFileSync(join(dir, "archetypes/server.csv"), text);
  return text;
}

/** The published 2.4.1 factors as JSON with new electricity locations up to `bytes`; returns its text. */
function factorsJson(dir: string, bytes: number): string {
  mkdirSync(dir, { recursive: true });
  const published = readFileSync(new URL("data/2.4.1/factors.json", root), "utf8");
  const head = published.replace(/"electricity"\s*:\s*\{/, '"electricity":{');
  const at = head.indexOf('"electricity":{') + '"electricity":{'.length;
  const location = (i: number) =>
    `"L${i}":{"country":"Place ${i}","gwp":{"unit":"kg CO2 eq","source":"ours","value":0.${(i % 900) + 100}}},`;
  const added = filled("", location, Number.MAX_SAFE_INTEGER, bytes - Buffer.byteLength(head));
  const text = `${head.slice(0, at)}${added}${head.slice(at)}`;
  writeFileSync(join(dir, "factors.json"), text);
  return text;
}

const mb = (text: string) => `${(Buffer.byteLength(text) / 1e6).toFixed(1)} MB`;

const SHAPES: readonly Shape[] = [
  {
    name: "rows",
    what: "archetypes/cloud/aws.csv of MAX_CUSTOM_DATA_ROWS instance types",
    write: (dir, past) => {
      mkdirSync(join(dir, "archetypes/cloud"), { recursive: true });
      const rows = past ? maxRows + 1 : maxRows;
      const text = filled(
        "id,vcpu,memory,ssd_storage,hdd_storage,gpu_units,platform,source\n",
        (i) => `acme.i${i},${(i % 64) + 1},${(i % 512) + 1},0,0,0,platform_compute_medium,ours\n`,
        rows,
        maxBytes,
      );
      writeFileSync(join(dir, "archetypes/cloud/aws.csv"), text);
      return `${rows} rows, ${(text.length / 1e6).toFixed(1)} MB`;
    },
    probe: "/v1/cloud/instance?verbose=false&criteria=gwp&provider=aws&instance_type=acme.i7",
  },
  {
    name: "server",
    what: "archetypes/server.csv of 2.4.1's 24-column rows up to MAX_CUSTOM_DATA_BYTES",
    write: (dir, past) => {
      let text = serverTable(dir, maxRows, maxBytes);
      if (past) {
        text += `${"x".repeat(maxBytes - Buffer.byteLength(text))}\n`;
        writeFileSync(join(dir, "archetypes/server.csv"), text);
      }
      return `${text.split("\n").length - 2} rows, ${mb(text)}`;
    },
    probe: "/v1/server/?verbose=false&criteria=gwp&archetype=server_7",
  },
  {
    name: "factors",
    what: "factors.yml up to MAX_CUSTOM_YAML_BYTES (an electricity factor per location)",
    write: (dir, past) => {
      mkdirSync(dir, { recursive: true });
      // The published factors in block style, electricity last, then new locations under it.
      const { electricity, ...rest } = JSON.parse(
        readFileSync(new URL("data/2.4.1/factors.json", root), "utf8"),
      ) as Record<string, unknown>;
      const head = `${stringify(rest)}${stringify({ electricity })}`;
      const location = (i: number) =>
        `  L${i}:\n    country: Place ${i}\n    gwp:\n      unit: kg CO2 eq\n      source: ours\n      value: 0.${(i % 900) + 100}\n`;
      let text = filled(head, location, Number.MAX_SAFE_INTEGER, maxYamlBytes);
      if (past) text += "#".repeat(maxYamlBytes - Buffer.byteLength(text) + 1);
      writeFileSync(join(dir, "factors.yml"), text);
      return `${(Buffer.byteLength(text) / 1e6).toFixed(1)} MB`;
    },
    probe: "/v1/component/cpu?verbose=false&criteria=gwp",
  },
  {
    name: "factors-json",
    what: "factors.json up to MAX_CUSTOM_DATA_BYTES (an electricity factor per location)",
    write: (dir, past) => {
      let text = factorsJson(dir, maxBytes);
      if (past) {
        text += " ".repeat(maxBytes - Buffer.byteLength(text) + 1);
        writeFileSync(join(dir, "factors.json"), text);
      }
      return mb(text);
    },
    probe: "/v1/component/cpu?verbose=false&criteria=gwp",
  },
  {
    name: "all",
    what: "server.csv of MAX_CUSTOM_DATA_ROWS rows and factors.json filling the rest of MAX_CUSTOM_DATA_BYTES",
    write: (dir, past) => {
      const server = serverTable(dir, maxRows, maxBytes);
      const factors = factorsJson(dir, maxBytes - Buffer.byteLength(server) + (past ? 200 : 0));
      return `${mb(server)} + ${mb(factors)}`;
    },
    probe: "/v1/server/?verbose=false&criteria=gwp&archetype=server_7",
  },
];

interface Outcome {
  readonly accepted: boolean;
  readonly line: string;
  readonly peakMb: number;
  readonly startMs: number;
}

/** Starts the built service on one custom edition; waits for its listening line or its exit. */
async function startOn(editionsFile: string, probe: string): Promise<Outcome> {
  const started = performance.now();
  const child: ChildProcess = spawn(process.execPath, serviceArguments(), {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: "0",
      HOST: "127.0.0.1",
      WORKERS: "1",
      LOG_LEVEL: "info",
      EDITIONS_FILE: editionsFile,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk) => {
    stderr += chunk;
  });
  const port = await new Promise<number | null>((resolve) => {
    let out = "";
    child.stdout?.on("data", (chunk) => {
      out += chunk;
      const match = /listening on http:\/\/[^:]+:(\d+)/.exec(out);
      if (match) resolve(Number(match[1]));
    });
    child.once("exit", () => resolve(null));
  });
  const startMs = performance.now() - started;
  if (port === null) {
    return { accepted: false, line: stderr.trim().split("\n")[0] ?? "", peakMb: Number.NaN, startMs };
  }
  const answer = await fetch(`http://127.0.0.1:${port}${probe}&edition=acme`);
  const peak = peakMb(child.pid as number);
  child.kill("SIGKILL");
  return { accepted: answer.ok, line: `${answer.status}`, peakMb: peak, startMs };
}

async function main(): Promise<void> {
  execFileSync("npm", ["run", "build", "--silent"], { cwd: root, stdio: "inherit" });
  const wanted = process.env.BENCH_CUSTOM_SHAPES?.split(",");
  console.log(
    `custom editions on Node ${process.version} at the shipped heap (${HEAP_MB} MB), bounds MAX_CUSTOM_DATA_BYTES=${maxBytes} MAX_CUSTOM_DATA_ROWS=${maxRows} MAX_CUSTOM_YAML_BYTES=${maxYamlBytes}`,
  );
  for (const shape of SHAPES.filter((candidate) => !wanted || wanted.includes(candidate.name))) {
    for (const past of [false, true]) {
      const dir = mkdtempSync(join(tmpdir(), "bench-custom-"));
      try {
        const holds = shape.write(join(dir, "data"), past);
        const file = join(dir, "editions.yml");
        writeFileSync(file, `editions:\n  - id: acme\n    base: "2.4.1"\n    data: data\n`);
        const outcome = await startOn(file, shape.probe);
        const figures = outcome.accepted
          ? `accepted, answered ${outcome.line}, peak RSS ${outcome.peakMb.toFixed(0)} MB, listening after ${(outcome.startMs / 1000).toFixed(1)} s`
          : `refused in ${(outcome.startMs / 1000).toFixed(1)} s: ${outcome.line}`;
        console.log(`- ${shape.what}${past ? ", past the bound" : ""} (${holds}): ${figures}`);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  }
}

await main();
