/** An impact criterion (docs/methodology.md §14.1). */
export interface CriterionInfo {
  /** Key under which the criterion is listed and answered (`CTUh_c` keeps its capitals). */
  readonly key: string;
  /** Name used for computation (factor lookups). */
  readonly name: string;
  readonly unit: string;
  readonly description: string;
  readonly method: string | null;
}

/**
 * Every impact criterion the engine can compute, in the reference's table order (docs/methodology.md §14.1,
 * §19.8.1): what a request may spell. Each edition lists those it computes (its rules' `criteria`,
 * src/editions); the engine never assumes an edition's list.
 */
export const CRITERIA: readonly CriterionInfo[] = [
  { key: "gwp", name: "gwp", unit: "kgCO2eq", description: "Total climate change", method: null },
  // "ressources" is the reference's spelling, kept so clients see identical text.
  {
    key: "adp",
    name: "adp",
    unit: "kgSbeq",
    description: "Use of minerals and fossil ressources",
    method: null,
  },
  { key: "pe", name: "pe", unit: "MJ", description: "Consumption of primary energy", method: null },
  {
    key: "gwppb",
    name: "gwppb",
    unit: "kg CO2 eq.",
    description: "Climate change - Contribution of biogenic emissions",
    method: "PEF",
  },
  {
    key: "gwppf",
    name: "gwppf",
    unit: "kg CO2 eq.",
    description: "Climate change - Contribution of fossil fuel emissions",
    method: "PEF",
  },
  {
    key: "gwpplu",
    name: "gwpplu",
    unit: "kg CO2 eq.",
    description: "Climate change - Contribution of emissions from land use change",
    method: "PEF",
  },
  {
    key: "ir",
    name: "ir",
    unit: "kg U235 eq.",
    description: "Emissions of radionizing substances",
    method: "PEF",
  },
  { key: "lu", name: "lu", unit: "No dimension", description: "Land use", method: "PEF" },
  {
    key: "odp",
    name: "odp",
    unit: "kg CFC-11 eq.",
    description: "Depletion of the ozone layer",
    method: "PEF",
  },
  {
    key: "pm",
    name: "pm",
    unit: "Disease occurrence",
    description: "Fine particle emissions",
    method: "PEF",
  },
  {
    key: "pocp",
    name: "pocp",
    unit: "kg NMVOC eq.",
    description: "Photochemical ozone formation",
    method: "PEF",
  },
  { key: "wu", name: "wu", unit: "m3 eq.", description: "Use of water resources", method: "PEF" },
  { key: "mips", name: "mips", unit: "kg", description: "Material input per unit of services", method: null },
  {
    key: "adpe",
    name: "adpe",
    unit: "kg SB eq.",
    description: "Use of mineral and metal resources",
    method: "PEF",
  },
  {
    key: "adpf",
    name: "adpf",
    unit: "MJ",
    description: "Use of fossil resources (including nuclear)",
    method: "PEF",
  },
  { key: "ap", name: "ap", unit: "mol H+ eq.", description: "Acidification", method: "PEF" },
  { key: "ctue", name: "ctue", unit: "CTUe", description: "Freshwater ecotoxicity", method: "PEF" },
  {
    key: "CTUh_c",
    name: "ctuh_c",
    unit: "CTUh",
    description: "Human Toxicity - Carcinogenic Effects",
    method: "PEF",
  },
  {
    key: "CTUh_nc",
    name: "ctuh_nc",
    unit: "CTUh",
    description: "Human toxicity - non-carcinogenic effects",
    method: "PEF",
  },
  { key: "epf", name: "epf", unit: "kg P eq.", description: "Eutrophication of freshwater", method: "PEF" },
  {
    key: "epm",
    name: "epm",
    unit: "kg N eq.",
    description: "Eutrophication of marine waters",
    method: "PEF",
  },
  { key: "ept", name: "ept", unit: "mol N eq.", description: "Terrestrial eutrophication", method: "PEF" },
  { key: "fw", name: "fw", unit: "m3", description: "Net use of freshwater", method: "" },
  /*
   * docs/methodology.md §19.8.1: final energy, added by the newer reference. Its electricity factor is 1
   * everywhere, so its use impact is the energy in kWh although labelled MJ (a kept quirk, Appendix
   * D.21); no embedded factor exists (not implemented).
   */
  { key: "fe", name: "fe", unit: "MJ", description: "Final energy consumption", method: null },
];

/**
 * Water consumption footprint, litres: the water the electricity's generation consumes and the
 * data centre's own (EcoLogits' WCF, docs/methodology.md "Generative AI"). Computed by the
 * generative-AI edition only; Boavizta's editions list it nowhere.
 */
export const WATER_CONSUMPTION: CriterionInfo = {
  key: "wcf",
  name: "wcf",
  unit: "L",
  description: "Water consumption footprint (on site and in electricity generation)",
  method: null,
};

/** Every criterion some edition computes: Boavizta's table, then the generative-AI edition's own. */
export const KNOWN_CRITERIA: readonly CriterionInfo[] = [...CRITERIA, WATER_CONSUMPTION];

const BY_KEY = new Map(KNOWN_CRITERIA.map((c) => [c.key, c]));
const BY_NAME = new Map(KNOWN_CRITERIA.map((c) => [c.name, c]));

export const DEFAULT_CRITERIA: readonly string[] = ["gwp", "adp", "pe"];

/**
 * A requested criterion string as the response will list it.
 *
 * Quirk (Appendix D.20): the reference computes over criteria whose *name* is requested but
 * answers by *key*, so `CTUh_c` is listed with both phases "not implemented" while `ctuh_c`
 * crashes it. We keep the first behaviour and answer `ctuh_c` properly (computed, listed under
 * the requested spelling). Unknown strings are rejected by the caller.
 */
export interface RequestedCriterion {
  readonly requested: string;
  readonly info: CriterionInfo;
  /** False for the `CTUh_c` spellings: listed but never computed. */
  readonly computed: boolean;
}

export function resolveCriterion(
  requested: string,
  table: readonly CriterionInfo[] = KNOWN_CRITERIA,
): RequestedCriterion | null {
  const known = table === KNOWN_CRITERIA;
  const byName = known ? BY_NAME.get(requested) : table.find((c) => c.name === requested);
  if (byName) return { requested, info: byName, computed: true };
  const byKey = known ? BY_KEY.get(requested) : table.find((c) => c.key === requested);
  if (byKey) return { requested, info: byKey, computed: false };
  return null;
}

/**
 * Electricity factors a client may override (`elec_factors`, §5.1): every criterion name except `fw`
 * and `fe` (final energy is not overridable, docs/methodology.md §19.8.1), whatever the edition.
 */
export const ELECTRICITY_CRITERIA: readonly string[] = CRITERIA.filter(
  (c) => c.name !== "fw" && c.name !== "fe",
).map((c) => c.name);

/** §5.2: `adp` reads the `adpe` entry of the electricity table; every other criterion its own name. */
export const ELECTRICITY_KEYS: Readonly<Record<string, string>> = { adp: "adpe" };

/** The electricity table's key of a criterion, by an edition's `electricityKeys` (§5.2). */
export function electricityKey(
  criterion: string,
  keys: Readonly<Record<string, string>> = ELECTRICITY_KEYS,
): string {
  return keys[criterion] ?? criterion;
}

/** Unit labels of the `<criterion>_factor` verbose attributes (§7.3). */
export const FACTOR_UNITS: Readonly<Record<string, string>> = {
  gwp: "kg CO2eq/kWh",
  adp: "kg Sbeq/kWh",
  pe: "MJ/kWh",
  gwppb: "kg CO2eq/kWh",
  gwppf: "kg CO2eq/kWh",
  gwpplu: "kg CO2eq/kWh",
  ir: "kg U235eq/kWh",
  lu: "No dimension/kWh",
  odp: "kg CFC-11eq/kWh",
  pm: "Disease occurrence/kWh",
  pocp: "kg NMVOCeq/kWh",
  wu: "m3eq/kWh",
  mips: "kg/kWh",
  adpe: "kg Sbeq/kWh",
  adpf: "MJ/kWh",
  ap: "mol H+eq/kWh",
  ctue: "CTUe/kWh",
  ctuh_c: "CTUh/kWh",
  ctuh_nc: "CTUh/kWh",
  epf: "kg Peq/kWh",
  epm: "kg Neq/kWh",
  ept: "mol Neq/kWh",
  fe: "MJ/kWh",
  fw: "m3",
};

/**
 * The power and factor rules every edition before 2.5.0 shares: RAM at 0.284 W/GB whatever the load
 * (§5.6), server RAM entries recording the running sum (Appendix D.2), no disk power, zero global
 * bounds read as missing (Appendix D.12), GPU names stored only (docs/methodology.md §19.15.2).
 */
export const POWER_AND_FACTOR_RULES_BEFORE_2_5 = {
  ramPower: { kind: "perGigabyte", wattsPerGb: 0.284 },
  serverRamPower: "runningSum",
  diskPower: null,
  electricityKeys: ELECTRICITY_KEYS,
  factorUnits: FACTOR_UNITS,
  zeroGlobalBound: "missing",
  gpuName: "stored",
} as const;
