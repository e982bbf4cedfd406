/**
 * The generative-AI kind against the package it reproduces (docs/methodology.md, "Generative AI"):
 * EcoLogits 0.11.3, installed at its pinned hashes by scripts/ensure-ecologits.sh (`npm test`'s
 * pretest), computes 2,000 random requests in its own process (its `llm_impacts`, no network, no
 * API key), and the service's engine the same requests. Every value and bound must agree within
 * 1e-6 relative on at least 99.5 % of them (the figure is docs/methodology.md's); the tables the
 * engine reads must be the package's facts.
 */

import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { seeded } from "../../scripts/seededRandom.js";
import { DEFAULT_LIMITS } from "../../src/config/serviceConfig.js";
import { Evaluation, type RequestedCriterion, resolveCriterion } from "../../src/engine/index.js";
import { DomainError } from "../../src/service/errors.js";
import { prepareGenerativeAi } from "../../src/service/generativeAi.js";
import { generativeAiService } from "../../src/service/open.js";

const ROOT = join(import.meta.dirname, "../..");
const REQUESTS = 2000;
const TOLERANCE = 1e-6;
const ai = generativeAiService();

/** The environment's python, or why there is none (the install's own words). */
function ecologitsPython(): string {
  const python = execFileSync("bash", [join(ROOT, "scripts/ensure-ecologits.sh")], {
    encoding: "utf8",
  }).trim();
  if (python !== "") return python;
  const failed = join(
    process.env.IMPACT_SERVICE_CACHE ?? join(homedir(), ".cache/impact-service"),
    "ecologits-0.11.3.failed",
  );
  throw new Error(existsSync(failed) ? readFileSync(failed, "utf8") : "ecologits 0.11.3 is not installed");
}

/** The package's own process on some input: stdout, within bounds of time and size. */
function reference(python: string, mode: "facts" | "impacts", input = ""): string {
  const run = spawnSync(python, [join(ROOT, "scripts/reference/ecologits_reference.py"), mode], {
    input,
    encoding: "utf8",
    timeout: 120_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.status !== 0) throw new Error(`ecologits_reference.py ${mode}: ${run.error ?? run.stderr}`);
  return run.stdout;
}

interface Request {
  readonly provider: string;
  readonly model: string;
  readonly output_tokens: number;
  readonly request_latency: number | null;
  readonly zone: string | null;
}

/**
 * Random requests: any model of the data (a few names changed by a letter, which both must
 * refuse), output tokens from 0 to 100,000 (log-uniform, some 0), a latency in 40 % of them (from
 * 10 ms to 2 minutes: often shorter than the generation, which caps it), a zone in 70 % (any of
 * the data's, a few unknown).
 */
function requests(seed: number): Request[] {
  const random = seeded(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
  const models = ai.engine.data.models;
  const zones = [...ai.engine.data.mixes.keys()];
  return Array.from({ length: REQUESTS }, (): Request => {
    const model = pick(models);
    const tokens = random() < 0.03 ? 0 : Math.floor(10 ** (random() * 5));
    return {
      provider: model.provider,
      model: random() < 0.01 ? `${model.name}x` : model.name,
      output_tokens: tokens,
      request_latency: random() < 0.4 ? 0.01 * 10 ** (random() * 4.08) : null,
      zone: random() < 0.3 ? null : random() < 0.01 ? "XYZ" : pick(zones),
    };
  });
}

/** The service's answer to a request, in the reference's layout ([min, max] per value). */
function ours(request: Request): Record<string, unknown> {
  const input = {
    provider: request.provider,
    model: request.model,
    outputTokens: request.output_tokens,
    requestLatency: request.request_latency,
    zone: request.zone,
  };
  let prepared: ReturnType<typeof prepareGenerativeAi>;
  try {
    prepared = prepareGenerativeAi(ai, DEFAULT_LIMITS, input, ["input"]);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return { errors: [error.field.at(-1) === "model" ? "model-not-registered" : "zone-not-registered"] };
  }
  const criteria = ["gwp", "adp", "pe", "fe", "wcf"].map(
    (name) => resolveCriterion(name, ai.edition.rules.criteria) as RequestedCriterion,
  );
  const evaluation = new Evaluation(prepared.build(), { criteria });
  const [gwp, adp, pe, fe, wcf] = criteria;
  const pair = (criterion: RequestedCriterion, phase: "embedded" | "use") => {
    const raw = evaluation.raw(criterion, phase);
    return raw === null ? null : { value: raw.value, bounds: [raw.min, raw.max] };
  };
  return {
    energy: pair(fe, "use"),
    gwp_use: pair(gwp, "use"),
    adpe_use: pair(adp, "use"),
    pe_use: pair(pe, "use"),
    wcf_use: pair(wcf, "use"),
    gwp_embodied: pair(gwp, "embedded"),
    adpe_embodied: pair(adp, "embedded"),
    pe_embodied: pair(pe, "embedded"),
  };
}

const VALUES = [
  "energy",
  "gwp_use",
  "adpe_use",
  "pe_use",
  "wcf_use",
  "gwp_embodied",
  "adpe_embodied",
  "pe_embodied",
] as const;

/** Within the tolerance; `closeWithin(0)` counts the requests equal to the last bit. */
const closeWithin = (tolerance: number) => (a: number, b: number) =>
  a === b || Math.abs(a - b) <= tolerance * Math.max(Math.abs(a), Math.abs(b));

/** Why one request disagrees (null: it agrees), on every value, bound and mean. */
function disagreement(
  theirs: Record<string, unknown>,
  mine: Record<string, unknown>,
  close = closeWithin(TOLERANCE),
): string | null {
  const theirErrors = (theirs.errors as string[]) ?? [];
  if (theirErrors.length > 0 || "errors" in mine) {
    return JSON.stringify(theirErrors) === JSON.stringify(mine.errors)
      ? null
      : `errors ${theirErrors} / ${mine.errors}`;
  }
  for (const name of VALUES) {
    const [min, max] = theirs[name] as [number, number];
    const mine_ = mine[name] as { value: number; bounds: [number, number] } | null;
    if (mine_ === null) return `${name}: not computed`;
    // EcoLogits' central figure of a range is its mean (RangeValue.mean).
    const expected = [min, max, (min + max) / 2];
    const found = [...mine_.bounds, mine_.value];
    if (!expected.every((value, index) => close(value, found[index])))
      return `${name}: ${JSON.stringify(expected)} / ${JSON.stringify(found)}`;
  }
  return null;
}

describe("the generative-AI kind against EcoLogits 0.11.3 itself", () => {
  let python: string;
  beforeAll(() => {
    python = ecologitsPython();
  });

  it("agrees on ≥ 99.5 % of 2,000 random requests within 1e-6 on every value and bound", () => {
    const asked = requests(79);
    const lines = reference(python, "impacts", asked.map((request) => JSON.stringify(request)).join("\n"))
      .trim()
      .split("\n");
    expect(lines).toHaveLength(REQUESTS);
    const answers = asked.map((request, index) => ({
      request,
      theirs: JSON.parse(lines[index]),
      mine: ours(request),
    }));
    const differences = answers.flatMap(({ request, theirs, mine }) => {
      const why = disagreement(theirs, mine);
      return why === null ? [] : [`${JSON.stringify(request)}: ${why}`];
    });
    const agreeing = REQUESTS - differences.length;
    const exact = answers.filter(
      ({ theirs, mine }) => disagreement(theirs, mine, closeWithin(0)) === null,
    ).length;
    // Both refused the same requests, each for its reason (the unknown names and zones drawn).
    const refused = lines.filter((line) => JSON.parse(line).errors.length > 0).length;
    // The figure docs/methodology.md gives ("Generative AI", how it is checked).
    console.log(
      `ecologits 0.11.3: ${agreeing} of ${REQUESTS} agree within ${TOLERANCE}, ${exact} to the last bit (${refused} refused by both)`,
    );
    expect(agreeing / REQUESTS, differences.slice(0, 5).join("\n")).toBeGreaterThanOrEqual(0.995);
    expect(refused).toBeGreaterThan(10);
  });

  it("reads the package's tables: every model, mix, figure and data centre", () => {
    const facts = JSON.parse(reference(python, "facts"));
    const { data } = ai.engine;
    expect(data.models.map((m) => `${m.provider}/${m.name}`)).toEqual(
      facts.models.map((m: { provider: string; name: string }) => `${m.provider}/${m.name}`),
    );
    for (const [index, model] of facts.models.entries()) {
      const mine = data.models[index];
      expect([
        mine.totalParameters.min,
        mine.totalParameters.max,
        mine.activeParameters.min,
        mine.activeParameters.max,
      ]).toEqual([...model.total, ...model.active]);
      expect([mine.tps, mine.ttft, mine.warnings]).toEqual([model.tps, model.ttft, model.warnings]);
    }
    expect(
      [...data.mixes.values()].map((mix) => [mix.zone, mix.adpe, mix.pe, mix.gwp, mix.wue, mix.warnings]),
    ).toEqual(
      facts.electricity_mixes.map((mix: Record<string, unknown>) => [
        mix.zone,
        mix.adpe,
        mix.pe,
        mix.gwp,
        mix.wue,
        mix.warnings,
      ]),
    );
    expect(data.figures.gpu_energy_alpha.value).toBe(facts.figures.GPU_ENERGY_ALPHA);
    expect(data.figures.hardware_lifespan.value).toBe(facts.figures.HARDWARE_LIFESPAN);
    expect(
      [...data.providers.values()].map((p) => [
        p.provider,
        p.datacenterLocation,
        p.pue.min,
        p.pue.max,
        p.wue.min,
        p.wue.max,
      ]),
    ).toEqual(
      Object.entries(facts.providers).map(([name, config]) => {
        const c = config as { datacenter_location: string; pue: number[]; wue: number[] };
        return [name, c.datacenter_location, ...c.pue, ...c.wue];
      }),
    );
  });
});
