/**
 * Providers as the recipe adds one (docs/architecture.md, "Add a billing provider"): each its
 * module, written for the tests that join them to PROVIDERS. Acme writes FOCUS 1.2 exports and no
 * rule of its own reads them (`focusLines: null`): its lines are read by the standard's columns.
 * Acme Metal declares its own FOCUS rules as data (src/billing/rules/focusLines.ts): a virtual
 * machine's hours are an instance's, its type the `am<n>.<size>` its description names.
 */

import { type BillingProvider, NO_GRAMMAR, ONE_PARTITION } from "../../src/billing/providers/provider.js";
import {
  allOf,
  FOCUS_HOUR_UNITS,
  lowerIn,
  lowerLike,
  namedType,
  present,
} from "../../src/billing/rules/focusLines.js";

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
  diskTiers: null,
  dtuTiers: null,
  services: [],
  catalogue: [],
  controlPlanes: [],
  deployments: [],
  sizePricing: { factor: null, why: "a test's provider: no published pricing rule" },
  partition: ONE_PARTITION,
  methodMatches: {},
  focusLines: null,
};

export const ACME_METAL: BillingProvider<"acme-metal"> = {
  ...ACME,
  id: "acme-metal",
  focusNames: ["acme metal"],
  regions: { "metal-fra-1": "DEU" },
  focusLines: {
    types: [{ name: "flavor", sources: [["ChargeDescription"]], pattern: "(am[0-9]+[.][a-z0-9]+)" }],
    kinds: [
      {
        kind: "compute",
        when: allOf(
          lowerLike("ResourceType", "virtual machine%"),
          lowerIn("ConsumedUnit", FOCUS_HOUR_UNITS),
          present(namedType("flavor")),
        ),
      },
    ],
    instanceType: [namedType("flavor")],
  },
};
