/**
 * The queries of sql/ are skeletons (issue 97: "a grep of sql/ for provider names, service codes,
 * unit words and tier letters finds only comments"): what a line means is data of the registry and
 * the providers' modules, written at the queries' markers (src/billing/queries.ts). This test reads
 * every text literal of sql/, comments aside, and names each that holds one of these words:
 * - a provider's id or FOCUS name (PROVIDERS);
 * - a service's code or name: the registry's services (storage, known, catalogue), the services
 *   the providers' FOCUS rules name (`AmazonEC2`, `Virtual Machines`), an AWS product code
 *   (`AWSLambda`), the services billing generative AI;
 * - a unit's word: a literal the unit grammar reads (src/billing/registry/units.ts: `Hrs`,
 *   `GB-Mo`), or a word of a pattern it reads (`'%ocpu%'`, `' ?GiB$'`), but the codes of the
 *   dimensions the queries compare (`hour`, `gb`, `gb-hour`, `count`); a text for a person (a
 *   warning naming `GPU`) compares nothing;
 * - a tier: a DTU tier's name or words (`s2`, `premium`), a LIKE pattern of one letter (`'p%'`), a
 *   class of a provider's disk tiers' letters (`[pes]`).
 * None is left: a word added to a skeleton fails here, naming its file.
 */
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { PROVIDERS } from "../../src/billing/providers/index.js";
import { VCPU_UNITS } from "../../src/billing/registry/lineWords.js";
import { CATALOGUE } from "../../src/billing/registry/managedServices.js";
import { KNOWN_SERVICES, STORAGE_SERVICES } from "../../src/billing/registry/services.js";
import { readUnit, unitSpelling } from "../../src/billing/registry/units.js";
import type { Condition } from "../../src/billing/rules/conditions.js";
import type { FocusCondition } from "../../src/billing/rules/focusLines.js";

const SQL = new URL("../../sql/", import.meta.url);

/** The dimensions' codes the queries compare a unit's reading with: codes, not a bill's words. */
const DIMENSION_CODES = new Set(["hour", "gb", "gb-hour", "count"]);

const lower = (text: string) => text.toLowerCase();

const PROVIDER_WORDS = PROVIDERS.flatMap((provider) => [provider.id, ...provider.focusNames]).map(lower);

/** The columns of a FOCUS export naming a line's service. */
const SERVICE_COLUMNS: ReadonlySet<unknown> = new Set(["ServiceName", "x_ServiceCode", "x_SkuMeterCategory"]);

/** The services a provider's FOCUS rules name (`x_ServiceCode` `AmazonEC2`, `x_SkuMeterCategory` `Virtual Machines`). */
function ruleServices(condition: FocusCondition): string[] {
  if ("all" in condition) return condition.all.flatMap(ruleServices);
  if ("any" in condition) return condition.any.flatMap(ruleServices);
  if (!SERVICE_COLUMNS.has(condition.field)) return [];
  return "oneOf" in condition ? [...condition.oneOf] : "lowerIn" in condition ? [...condition.lowerIn] : [];
}

/** The services' names, a provider's (a name every provider's bills use, `Tax`, is a charge's category too). */
const SERVICE_WORDS = [
  ...[...STORAGE_SERVICES, ...KNOWN_SERVICES]
    .filter((service) => service.provider !== "")
    .flatMap((service) => service.names),
  ...CATALOGUE.map((service) => service.name),
  ...PROVIDERS.flatMap((provider) => provider.generativeAi?.services ?? []),
  ...PROVIDERS.flatMap(
    (provider) => provider.focusLines?.kinds.flatMap((rule) => ruleServices(rule.when)) ?? [],
  ),
].map(lower);

/** A tier's name or words of two letters at least (a DTU tier, `premium`), a class of disk tiers' letters (`[pes]`). */
const TIER_WORDS = [
  ...PROVIDERS.flatMap(({ dtuTiers }) =>
    dtuTiers === null ? [] : [...Object.keys(dtuTiers.tiers), ...dtuTiers.otherTiers.words],
  ).filter((word) => word.length > 1),
  ...PROVIDERS.flatMap(({ diskTiers }) => (diskTiers === null ? [] : [`[${diskTiers.letters}]`])),
];

/** Whether `phrase` is in `text` as whole words (no letter or digit either side). */
function holds(text: string, phrase: string): boolean {
  const escaped = phrase.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(?:^|[^a-z0-9])${escaped}(?:[^a-z0-9]|$)`).test(text);
}

/** The resources a condition reads a line's unit as (`resource("ocpu")`). */
function resources(condition: Condition): string[] {
  if ("all" in condition) return condition.all.flatMap(resources);
  if ("any" in condition) return condition.any.flatMap(resources);
  if (!("column" in condition) || condition.column !== "billing_unit_resource") return [];
  return "is" in condition && condition.is !== null
    ? [condition.is]
    : "oneOf" in condition
      ? [...condition.oneOf]
      : [];
}

/** The units of compute the registry reads as vCPUs (`ocpu`, `acu`, `rpu`) and a provider's DTUs (`dtu`). */
const RESOURCE_UNITS: ReadonlySet<string> = new Set([
  ...VCPU_UNITS.flatMap((unit) => resources(unit.match)),
  ...PROVIDERS.flatMap(({ dtuTiers }) => (dtuTiers === null ? [] : [dtuTiers.word])),
]);

/**
 * Whether a word (lower case) is a unit: data or time the grammar reads (`hrs`, `gb-mo`), or, where
 * `inPattern` (a pattern's word), a unit of compute (RESOURCE_UNITS). A count of things (`requests`,
 * any word the grammar counts) is none, nor a word of one letter.
 */
function unitWord(word: string, inPattern: boolean): boolean {
  if (word.length < 2 || !/[a-z]/.test(word)) return false;
  if (inPattern && RESOURCE_UNITS.has(word)) return true;
  const spelling = unitSpelling(word);
  const reading = spelling === null ? null : readUnit(spelling);
  return reading !== null && reading.dimension !== "count";
}

/**
 * Why a literal of sql/ (as written, without its quotes) names what a skeleton must not; null for
 * none. Units are looked for in the queries reading a bill (`readsBill`: sql/classify/); the others
 * read the classified lines, whose literals are codes and messages (`'day'`: a date order's).
 */
function namedThing(literal: string, readsBill = true): string | null {
  const text = lower(literal);
  const provider = PROVIDER_WORDS.find((word) => holds(text, word));
  if (provider !== undefined) return `provider ${provider}`;
  const service =
    SERVICE_WORDS.find((word) => holds(text, word)) ?? /\b(?:amazon|aws)[a-z0-9]+/.exec(text)?.[0];
  if (service !== undefined) return `service ${service}`;
  const tier =
    TIER_WORDS.find((word) => (word.startsWith("[") ? text.includes(word) : holds(text, word))) ??
    /^[a-z]%$/.exec(text)?.[0];
  if (tier !== undefined) return `tier ${tier}`;
  // A dimension's code as the queries compare it, case and all (`'gb'`; `'GB'` is a bill's unit)
  if (!readsBill || DIMENSION_CODES.has(literal)) return null;
  // A unit as a value (`'Hrs'`); a fragment of a text for a person (`' GiB'`, blanks around) is none
  if (text === text.trim() && unitWord(text, false)) return `unit ${text}`;
  // A pattern's words (LIKE's `%`, a regular expression's groups and classes, anchors); a text for a
  // person (a warning, a reason: `(one method a line)`) compares nothing with a line's unit
  if (!/%|\(\?|\[|\^|\$/.test(text)) return null;
  const unit = text.split(/[^a-z0-9/]+/).find((word) => unitWord(word, true));
  return unit === undefined ? null : `unit ${unit}`;
}

/** The text literals of an SQL text, comments aside (`--` to the line's end; sql/ writes no other). */
function literals(sql: string): string[] {
  const code = sql
    .split("\n")
    .map((line) => line.replace(/--.*$/, ""))
    .join("\n");
  return [...code.matchAll(/'([^']*)'/g)].map((match) => match[1]);
}

/** Each query of sql/ with the literals it holds that name a provider, service, unit or tier, and why. */
function namedThings(): Record<string, string[]> {
  const files = readdirSync(SQL, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".sql"))
    .map((file) => file.split("\\").join("/"))
    .sort();
  const found: Record<string, string[]> = {};
  for (const file of files) {
    const named = literals(readFileSync(new URL(file, SQL), "utf8")).flatMap((literal) => {
      const why = namedThing(literal, file.startsWith("classify/"));
      return why === null ? [] : [`'${literal}': ${why}`];
    });
    if (named.length > 0) found[file] = [...new Set(named)];
  }
  return found;
}

describe("the queries of sql/", () => {
  it("name no provider, service, unit word or tier but in comments", () => {
    expect(namedThings()).toEqual({});
  });

  it("would name each kind of word a skeleton must not hold", () => {
    expect(namedThing("aws")).toBe("provider aws");
    expect(namedThing("AmazonEC2")).toBe("service amazonec2");
    expect(namedThing("GB-Mo")).toMatch(/^unit /);
    expect(namedThing("p%")).toBe("tier p%");
    expect(namedThing("s2")).toBe("tier s2");
    expect(namedThing("(?:^|[ |-])[pes]([0-9]+) ")).toBe("tier [pes]");
    expect(namedThing("^([0-9]+) ?GiB$")).toBe("unit gib");
    // A person's text is no unit's comparison; a query of the classified lines compares no unit
    expect(namedThing(" GiB")).toBeNull();
    expect(
      namedThing("provisioned IOPS as the SSD capacity delivering them: 3 IOPS a GiB (gp2 baseline)"),
    ).toBeNull();
    expect(namedThing("Hrs", false)).toBeNull();
    expect(namedThing("GB")).toBe("unit gb");
    expect(namedThing("%ocpu%")).toBe("unit ocpu");
    expect(namedThing("%dtu%")).toBe("unit dtu");
    // The codes the skeletons compare are not a bill's words
    for (const code of [
      "gb-hour",
      "hour",
      "not compute",
      "usage",
      "data-transfer",
      "managed-size",
      "unread-text",
    ])
      expect(namedThing(code), code).toBeNull();
  });
});
