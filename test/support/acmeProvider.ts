/**
 * A provider as the recipe adds one (docs/architecture.md, "Add a billing provider"): its module,
 * written for the tests that join it to PROVIDERS. Acme writes FOCUS 1.2 exports and no rule of
 * its own reads them (`ownFocusRules: false`): its lines are read by the standard's columns.
 */
import { type BillingProvider, NO_GRAMMAR, ONE_PARTITION } from "../../src/billing/providers/provider.js";

export const ACME: BillingProvider<"acme"> = {
  id: "acme",
  focusNames: ["acme", "acme cloud"],
  regions: { "acme-fra-1": "DEU" },
  regionSpellings: {},
  pue: null,
  wattsPerVcpu: null,
  referenceInstance: null,
  names: NO_GRAMMAR,
  generativeAi: null,
  storage: [],
  services: [],
  catalogue: [],
  controlPlanes: [],
  deployments: [],
  sizePricing: { factor: null, why: "a test's provider: no published pricing rule" },
  partition: ONE_PARTITION,
  methodMatches: {},
  ownFocusRules: false,
};
