/**
 * A provider is one module (src/billing/providers/): everything keyed by provider reads it from
 * PROVIDERS — a FOCUS export's provider names, the regions and places, the PUE and watts, the
 * registry's storage, services, catalogue and control planes — and each module's rows are its own.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { FOCUS } from "../../src/billing/formats/focus.js";
import { billingPlaces } from "../../src/billing/places.js";
import { focusProvidersSql, ownFocusRulesSql, PROVIDERS } from "../../src/billing/providers/index.js";
import { sqlQuery } from "../../src/billing/queries.js";
import { CATALOGUE } from "../../src/billing/registry/managedServices.js";
import { CONTROL_PLANES } from "../../src/billing/registry/methods.js";
import { REGION_COUNTRIES } from "../../src/billing/registry/regions.js";
import { FEE_SERVICE_NAMES, KNOWN_SERVICES, STORAGE_SERVICES } from "../../src/billing/registry/services.js";
import { focusLinesColumns, namedTypeColumn } from "../../src/billing/rules/focusLines.js";
import { pueOf } from "../../src/billing/stages/methodRows.js";

describe("the providers, one module each", () => {
  it("each holds its own rows, and is read everywhere a provider is", () => {
    const ids = PROVIDERS.map((provider) => provider.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const provider of PROVIDERS) {
      const rows = [
        ...provider.storage,
        ...provider.services,
        ...provider.catalogue,
        ...provider.controlPlanes,
      ];
      expect(
        rows.every((row) => row.provider === provider.id),
        provider.id,
      ).toBe(true);
      expect(Object.keys(provider.regions).length, provider.id).toBeGreaterThan(0);
      expect(REGION_COUNTRIES[provider.id]).toBe(provider.regions);
    }
    // The registry's rows are the providers' (and the services every provider's bills name)
    const owned = (rows: readonly { provider: string }[]) => rows.filter((row) => row.provider !== "");
    expect(owned(STORAGE_SERVICES)).toHaveLength(PROVIDERS.flatMap((provider) => provider.storage).length);
    expect(owned(KNOWN_SERVICES)).toHaveLength(PROVIDERS.flatMap((provider) => provider.services).length);
    expect(CATALOGUE).toHaveLength(PROVIDERS.flatMap((provider) => provider.catalogue).length);
    expect(CONTROL_PLANES).toHaveLength(PROVIDERS.flatMap((provider) => provider.controlPlanes).length);
  });

  it("names every provider in the FOCUS query's provider CASE, as its module spells it", () => {
    const focus = sqlQuery("classify/billing_lines_focus.sql");
    expect(focus).toContain(
      focusProvidersSql("        ", "LOWER(COALESCE(e.ServiceProviderName, e.ProviderName))"),
    );
    for (const provider of PROVIDERS) expect(focus).toContain(`THEN '${provider.id}'`);
  });

  it("writes each provider's FOCUS rules into the FOCUS query, whose skeleton names none", () => {
    // The skeleton's texts, comments aside: a non-usage charge, a line of no rule, an empty cell
    const skeleton = readFileSync("sql/classify/billing_lines_focus.sql", "utf8").replace(/--.*$/gm, "");
    expect(new Set(skeleton.match(/'[^']*'/g))).toEqual(new Set(["''", "'Usage'", "'not compute'"]));
    const focus = sqlQuery("classify/billing_lines_focus.sql");
    for (const provider of PROVIDERS) {
      const rules = provider.focusLines;
      if (rules === null) continue;
      // each kind rule a WHEN on its provider's lines, each type it names a column, its instance type a WHEN
      expect(focus.split(`    WHEN p.billing_provider = '${provider.id}'\n`), provider.id).toHaveLength(
        1 + rules.kinds.length,
      );
      for (const type of rules.types)
        expect(focus).toContain(`END AS ${namedTypeColumn(provider.id, type.name)},`);
      expect(focus).toContain(`    WHEN p.billing_provider = '${provider.id}' THEN `);
    }
    // The kinds' rules of AWS and Oracle read the registry's fee services, as the registry lists them
    expect(focus.split(`NOT IN (${FEE_SERVICE_NAMES.map((name) => `'${name}'`).join(", ")})`)).toHaveLength(
      3,
    );
  });

  it("reads in its FOCUS rules only columns the FOCUS format reads (present, empty, where a file lacks them)", () => {
    const read = new Set([...FOCUS.required.flat(), ...FOCUS.optional]);
    const computed = ["billing_type_hint", "billing_usage_type"];
    for (const provider of PROVIDERS) {
      if (provider.focusLines === null) continue;
      const columns = focusLinesColumns(provider.focusLines);
      expect(columns.length, provider.id).toBeGreaterThan(0);
      expect(
        columns.filter((column) => !read.has(column) && !computed.includes(column)),
        provider.id,
      ).toEqual([]);
    }
  });

  it("writes each provider's disk tiers into the methods' query, whose file names none", () => {
    const file = readFileSync("sql/classify/billing_methods.sql", "utf8");
    expect(file).not.toMatch(/\[pes\]|THEN 32767/);
    const methods = sqlQuery("classify/billing_methods.sql");
    const withTiers = PROVIDERS.filter((provider) => provider.diskTiers !== null);
    expect(withTiers.map((provider) => provider.id)).toEqual(["azure"]);
    for (const { diskTiers } of withTiers) {
      if (diskTiers === null) continue;
      expect(methods).toContain(`'(?:^|[ |-])[${diskTiers.letters}]([0-9]+) '`);
      for (const [tier, gib] of Object.entries(diskTiers.gib))
        expect(methods).toMatch(new RegExp(`\\n +WHEN '${tier}' THEN ${gib}\\.0\\n`));
    }
  });

  it("writes each provider's DTU tiers into the methods' query, whose file names none", () => {
    const file = readFileSync("sql/classify/billing_methods.sql", "utf8").replace(/--.*$/gm, "");
    expect(file).not.toMatch(/WHEN 's2'|WHEN 'basic'|dtu|premium|125\.0/);
    const methods = sqlQuery("classify/billing_methods.sql");
    const withTiers = PROVIDERS.filter((provider) => provider.dtuTiers !== null);
    expect(withTiers.map((provider) => provider.id)).toEqual(["azure"]);
    for (const { dtuTiers } of withTiers) {
      if (dtuTiers === null) continue;
      for (const [tier, dtus] of Object.entries(dtuTiers.tiers))
        expect(methods).toMatch(new RegExp(`\\n +WHEN '${tier}' THEN ${dtus}\\.0\\n`));
      // A line of its DTUs read as vCores (its tiers' DTUs a vCore), its unknown tier named (a warning)
      expect(methods).toContain(`WHEN s.billing_usage_text LIKE '%${dtuTiers.word}%' THEN COALESCE(`);
      expect(methods).toContain(
        `THEN ${dtuTiers.otherTiers.perVcore.toFixed(1)} ELSE ${dtuTiers.perVcore.toFixed(1)} END`,
      );
      expect(methods).toContain(`ELSE CONCAT('unknown ${dtuTiers.name} tier ', UPPER(REGEXP_EXTRACT(`);
    }
  });

  it("reads SkuPriceDetails' F_ properties on every FOCUS line but those of providers with their own rules", () => {
    const usage = sqlQuery("classify/billing_usage_focus.sql");
    const own = PROVIDERS.filter((provider) => provider.focusLines !== null);
    expect(own.map((provider) => provider.id)).toEqual(["aws", "azure", "gcp", "oracle"]);
    expect(ownFocusRulesSql("l.billing_provider")).toBe(
      "l.billing_provider IN ('aws', 'azure', 'gcp', 'oracle')",
    );
    // one condition for each property read (cores, memory, GPUs, disk space and type, instance type, storage class, redundancy)
    expect(usage.split(`CASE WHEN ${ownFocusRulesSql("l.billing_provider")} OR `)).toHaveLength(1 + 8);
    expect(usage).not.toContain("-- @");
    // none with rules of its own: every line is read by the standard's columns (IN () is no engine's SQL)
    expect(ownFocusRulesSql("l.billing_provider", [])).toBe("1 = 0");
    expect(ownFocusRulesSql("p.billing_provider", PROVIDERS.slice(2))).toBe(
      "p.billing_provider IN ('gcp', 'oracle')",
    );
  });

  it("places every provider's regions, and Azure's billing names at their region", () => {
    const places = billingPlaces({
      own: [{ provider: "azure", region: "westeurope", usageLocation: "NLD" }] as never,
      known: [],
      countries: new Set(["NLD", "USA", "DEU"]),
      defaultLocation: "EEE",
    });
    const placeOf = (provider: string, spelling: string) =>
      places.find((place) => place.provider === provider && place.spelling === spelling)?.place;
    expect(placeOf("azure", "euwest")).toBe("westeurope");
    expect(placeOf("oracle", "eufrankfurt1")).toBe("DEU");
    for (const provider of PROVIDERS)
      expect(places.some((place) => place.provider === provider.id)).toBe(true);
  });

  it("gives a provider without a published PUE the others' highest", () => {
    for (const provider of PROVIDERS) expect(pueOf(provider.id)).toBe(provider.pue ?? 1.185);
    expect(["aws", "azure", "gcp", "oracle", ""].map(pueOf)).toEqual([1.135, 1.185, 1.1, 1.185, 1.185]);
  });
});
