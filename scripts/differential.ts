/**
 * The differential harness: the same random v1 requests (scripts/differential/requests.ts) sent to
 * the service (in process, `edition=2.5.0`) and to the rebuilt reference (`bash scripts/reference.sh
 * start`), each answer judged by the conformance rules (scripts/differential/compare.ts) and every
 * difference classified by where it is. Writes the report (bench/differential-2.5.0.md) and, with
 * `--record`, the corpus CI replays without the reference (requests and the reference's answers,
 * the conformance cases' format: id, group, method, path, body, status, response).
 *
 *   npx tsx scripts/differential.ts --reference http://127.0.0.1:5250 \
 *     [--per-family 2000] [--seed 1] [--families server,cloud] [--edition 2.5.0] \
 *     [--report bench/differential-2.5.0.md] [--record test/fixtures/reference-2.5.0/corpus.jsonl] \
 *     [--record-per-family 40]
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { parseArgs } from "node:util";
import { createApp } from "../src/app/main.js";
import { defaultConfig } from "../src/config/serviceConfig.js";
import { createLogger } from "../src/support/log.js";
import { type Answer, agrees, differences, judge, signature, type Verdict } from "./differential/compare.js";
import {
  CATALOG_ROUTES,
  type Catalog,
  type DifferentialRequest,
  FAMILIES,
  type Family,
  generate,
  PERIPHERAL_KINDS,
  TERMINAL_KINDS,
} from "./differential/requests.js";
import { nudgedBodies } from "./differential/stability.js";

const { values: options } = parseArgs({
  options: {
    reference: { type: "string", default: "http://127.0.0.1:5250" },
    "per-family": { type: "string", default: "2000" },
    seed: { type: "string", default: "1" },
    families: { type: "string", default: FAMILIES.join(",") },
    edition: { type: "string", default: "2.5.0" },
    report: { type: "string", default: "bench/differential-2.5.0.md" },
    record: { type: "string" },
    "record-per-family": { type: "string", default: "40" },
  },
});

/** A reference request that takes longer is a failure of the harness, not an answer. */
const REFERENCE_TIMEOUT_MS = 60_000;
const reference = (options.reference ?? "").replace(/\/$/, "");

/** A connection refused or reset (the reference's single worker under a busy machine) is retried, up to this. */
const REFERENCE_ATTEMPTS = 3;

async function askReference(method: string, path: string, body: string | null, attempt = 1): Promise<Answer> {
  let response: Response;
  try {
    response = await fetch(reference + path, {
      method,
      body,
      headers: body === null ? {} : { "content-type": "application/json" },
      signal: AbortSignal.timeout(REFERENCE_TIMEOUT_MS),
    });
  } catch (error) {
    if (attempt >= REFERENCE_ATTEMPTS) throw new Error(`${method} ${path}: ${String(error)}`);
    await new Promise((resolve) => setTimeout(resolve, 1000 * attempt));
    return askReference(method, path, body, attempt + 1);
  }
  const text = await response.text();
  try {
    return { status: response.status, body: JSON.parse(text) };
  } catch {
    return { status: response.status, body: text };
  }
}

async function listing(path: string): Promise<string[]> {
  const { status, body } = await askReference("GET", path, null);
  if (status !== 200) throw new Error(`${path}: the reference answered ${status}`);
  if (Array.isArray(body)) return body.map(String);
  if (body && typeof body === "object") return Object.keys(body);
  throw new Error(`${path}: not a listing`);
}

async function catalogOf(): Promise<Catalog> {
  const lists = Object.fromEntries(
    await Promise.all(
      Object.entries(CATALOG_ROUTES).map(async ([name, path]) => [name, await listing(path)]),
    ),
  ) as Record<keyof typeof CATALOG_ROUTES, string[]>;
  const byProvider = async (route: string) =>
    Object.fromEntries(
      await Promise.all(lists.providers.map(async (p) => [p, await listing(`${route}?provider=${p}`)])),
    );
  const byKind = async (group: string, kinds: readonly string[]) =>
    Object.fromEntries(
      await Promise.all(kinds.map(async (k) => [k, await listing(`/v1/${group}/${k}/archetypes`)])),
    );
  return {
    ...lists,
    instances: await byProvider("/v1/cloud/instance/all_instances"),
    regions: await byProvider("/v1/utils/cloud_regions"),
    terminals: await byKind("terminal", TERMINAL_KINDS),
    peripherals: await byKind("peripheral", PERIPHERAL_KINDS),
  };
}

/**
 * A profile difference where the reference contradicts itself: the first nudge of the workload
 * (./differential/stability.ts) whose answer differs from the reference's answer to the request.
 */
async function probeStability(
  request: DifferentialRequest,
  referenceAnswer: Answer,
  found: readonly string[],
): Promise<Verdict> {
  for (const { probe, body } of nudgedBodies(request.bodyRaw === undefined ? request.body : null)) {
    const nudged = await askReference(request.method, request.path, JSON.stringify(body));
    if (nudged.status !== referenceAnswer.status) continue;
    const spread = differences(referenceAnswer.body, nudged.body);
    if (spread.length > 0) return { kind: "reference unstable", differences: found, probe, spread };
  }
  return { kind: "differ", differences: found };
}

interface Outcome {
  readonly request: DifferentialRequest;
  readonly reference: Answer;
  readonly verdict: Verdict;
}

async function run(): Promise<void> {
  const perFamily = Number(options["per-family"]);
  const seed = Number(options.seed);
  const families = (options.families ?? "")
    .split(",")
    .filter((f): f is Family => FAMILIES.includes(f as Family));
  const catalog = await catalogOf();
  const app = createApp(defaultConfig(), { logger: createLogger("silent") });
  const outcomes = new Map<Family, Outcome[]>();
  for (const family of families) {
    const list: Outcome[] = [];
    const started = Date.now();
    for (const request of generate(family, perFamily, seed, catalog)) {
      const body = request.bodyRaw ?? (request.body === null ? null : JSON.stringify(request.body));
      const referenceAnswer = await askReference(request.method, request.path, body);
      const separator = request.path.includes("?") ? "&" : "?";
      const served = await app.rest({
        method: request.method,
        url: `${request.path}${separator}edition=${options.edition}`,
        body: body ?? "",
      });
      let verdict = judge(referenceAnswer, { status: served.status, body: served.body });
      if (family === "consumption_profile" && verdict.kind === "differ") {
        verdict = await probeStability(request, referenceAnswer, verdict.differences);
      }
      list.push({ request, reference: referenceAnswer, verdict });
    }
    outcomes.set(family, list);
    const agreed = list.filter((o) => agrees(o.verdict)).length;
    console.log(
      `${family}: ${agreed}/${list.length} agree (${((Date.now() - started) / 1000).toFixed(0)} s)`,
    );
  }
  writeReport(outcomes, perFamily, seed);
  if (options.record) record(outcomes, Number(options["record-per-family"]));
}

/** Every `step`-th outcome of each family, so the corpus spreads over the whole draw. */
function record(outcomes: ReadonlyMap<Family, Outcome[]>, perFamily: number): void {
  const lines: string[] = [];
  for (const [family, list] of outcomes) {
    const step = Math.max(1, Math.floor(list.length / perFamily));
    for (let i = 0; i < list.length && i / step < perFamily; i += step) {
      const { request, reference: answer } = list[i];
      const line: Record<string, unknown> = {
        id: request.id,
        group: family,
        method: request.method,
        path: request.path,
        body: request.body,
        status: answer.status,
        response: answer.body,
      };
      if (request.bodyRaw !== undefined) line.body_raw = request.bodyRaw;
      lines.push(JSON.stringify(line));
    }
  }
  const path = options.record as string;
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${lines.join("\n")}\n`);
  console.log(`recorded ${lines.length} cases in ${path}`);
}

/**
 * A profile request's workload: none (the TDP or the base profile), points whose power rises with
 * the load (what a measured CPU gives), or points that do not (random, contradictory powers).
 */
function workloadShape(request: DifferentialRequest): string {
  const workload = (request.body as { workload?: unknown } | null)?.workload;
  if (!Array.isArray(workload) || workload.length === 0) return "no workload";
  const points = workload
    .map((p) => p as { load_percentage?: unknown; power_watt?: unknown })
    .filter((p) => typeof p.load_percentage === "number" && typeof p.power_watt === "number")
    .map((p) => [p.load_percentage as number, p.power_watt as number])
    .sort((a, b) => a[0] - b[0]);
  if (points.length !== workload.length) return "malformed workload";
  const rising = points.every((p, i) => i === 0 || (p[0] > points[i - 1][0] && p[1] >= points[i - 1][1]));
  return rising
    ? `rising workload of ${points.length < 4 ? "1–3" : "4 or more"} points`
    : "workload not rising with the load";
}

function profileShapes(list: readonly Outcome[]): string[] {
  const shapes = new Map<string, { count: number; agreed: number }>();
  for (const outcome of list) {
    const shape = workloadShape(outcome.request);
    const entry = shapes.get(shape) ?? { count: 0, agreed: 0 };
    entry.count++;
    if (agrees(outcome.verdict)) entry.agreed++;
    shapes.set(shape, entry);
  }
  return [...shapes].map(
    ([shape, { count, agreed }]) =>
      `- by workload: ${shape}: ${agreed}/${count} agree (${((100 * agreed) / count).toFixed(1)} %)`,
  );
}

/** One line for the differences where the reference contradicts itself, with its first example. */
function unstableSummary(list: readonly Outcome[]): string {
  const first = list[0];
  if (first.verdict.kind !== "reference unstable") return "";
  const { probe, spread, differences: found } = first.verdict;
  return `- ${list.length} × the reference unstable (kept, docs/DEVIATIONS.md): its answer moves by more than the tolerance when one input moves by one ulp — e.g. ${first.request.id} \`${JSON.stringify(first.request.body).slice(0, 200)}\`: with ${probe} the reference answers ${spread[0]}; the service: ${found[0]}`;
}

function writeReport(outcomes: ReadonlyMap<Family, Outcome[]>, perFamily: number, seed: number): void {
  const rows: string[] = [];
  const details: string[] = [];
  let total = 0;
  let agreedTotal = 0;
  let boundedTotal = 0;
  let unstableTotal = 0;
  for (const [family, list] of outcomes) {
    const count = (kind: Verdict["kind"]) => list.filter((o) => o.verdict.kind === kind).length;
    const agreed = list.filter((o) => agrees(o.verdict)).length;
    total += list.length;
    agreedTotal += agreed;
    const share = ((100 * agreed) / list.length).toFixed(2);
    const bounded = count("refused by a bound");
    boundedTotal += bounded;
    const unstable = count("reference unstable");
    unstableTotal += unstable;
    const withKept = ((100 * (agreed + bounded + unstable)) / list.length).toFixed(2);
    rows.push(
      `| ${family} | ${list.length} | ${count("agree")} | ${count("reference crash answered")} | ${count("other 4xx")} | ${bounded} | ${unstable} | ${count("differ")} | **${share} %** | ${withKept} % |`,
    );
    const bySignature = new Map<string, Outcome[]>();
    for (const outcome of list) {
      const { verdict } = outcome;
      if (verdict.kind !== "differ" && verdict.kind !== "refused by a bound") continue;
      const key =
        verdict.kind === "differ"
          ? [...new Set(verdict.differences.map(signature))].join(" + ")
          : `refused by the service's bound on ${verdict.field}`;
      bySignature.set(key, [...(bySignature.get(key) ?? []), outcome]);
    }
    const crashes = list.filter((o) => o.verdict.kind === "reference crash answered");
    const unstableOnes = list.filter((o) => o.verdict.kind === "reference unstable");
    if (bySignature.size === 0 && crashes.length === 0 && unstableOnes.length === 0) continue;
    details.push(`### ${family}`, "");
    for (const [key, group] of [...bySignature].sort((a, b) => b[1].length - a[1].length)) {
      const first = group[0];
      const shown =
        first.verdict.kind === "differ"
          ? first.verdict.differences.slice(0, 3).join("; ")
          : "the reference answered 200";
      details.push(
        `- ${group.length} × \`${key}\` — e.g. ${first.request.id} \`${first.request.method} ${first.request.path}\` ${first.request.body === null ? "" : `\`${JSON.stringify(first.request.body).slice(0, 200)}\``}: ${shown}`,
      );
    }
    if (unstableOnes.length > 0) details.push(unstableSummary(unstableOnes));
    if (family === "consumption_profile") details.push(...profileShapes(list));
    if (crashes.length > 0) {
      const routes = [...new Set(crashes.map((o) => `${o.request.method} ${o.request.path.split("?")[0]}`))];
      details.push(
        `- ${crashes.length} × the reference failed (HTTP 500), the service answered (kept, docs/DEVIATIONS.md): ${routes.join(", ")}; e.g. ${crashes[0].request.id}`,
      );
    }
    details.push("");
  }
  const text = [
    `# Differential run against the rebuilt reference (edition ${options.edition})`,
    "",
    'Written by `npx tsx scripts/differential.ts` (bench/README.md, "Against the rebuilt reference"):',
    `${perFamily} random requests per route family (seed ${seed}) sent to the service (in process,`,
    `\`edition=${options.edition}\`) and to boaviztapi ${options.edition} installed from the package index and`,
    "started by `bash scripts/reference.sh start`; answers judged by the conformance rules",
    "(scripts/differential/compare.ts: numbers within 1e-3, warnings as sets, profiles by their curve,",
    "any 4xx for a 4xx, any answer below 500 where the reference failed).",
    "",
    "`agree` counts the identical answers, the reference's crashes answered and another 4xx for a 4xx.",
    "`agree with the kept differences` adds the service's own bounds (a 422 where the reference answered)",
    "and the differences where the reference contradicts itself: its answer to the same workload with",
    "one input moved by one unit in the last place differs by more than the tolerance (reference unstable,",
    "scripts/differential/stability.ts). Both are listed below and in docs/DEVIATIONS.md.",
    "",
    "| family | requests | identical | reference crash answered | other 4xx | refused by a bound | reference unstable | differ | agree | agree with the kept differences |",
    "|---|---|---|---|---|---|---|---|---|---|",
    ...rows,
    `| all | ${total} | | | | ${boundedTotal} | ${unstableTotal} | ${total - agreedTotal - boundedTotal - unstableTotal} | **${((100 * agreedTotal) / total).toFixed(2)} %** | ${((100 * (agreedTotal + boundedTotal + unstableTotal)) / total).toFixed(2)} % |`,
    "",
    "## Differences by where they are",
    "",
    ...(details.length > 0 ? details : ["None.", ""]),
  ].join("\n");
  mkdirSync(dirname(options.report as string), { recursive: true });
  writeFileSync(options.report as string, text);
  console.log(`report: ${options.report}`);
}

run().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
