/*
 * Where a billing line ran, as the coefficient table names it: a region spelling of the export
 * (`eu-west-3`, `westeurope`, `West Europe`, `EU West`) mapped to the edition's region (editions
 * with cloud regions) or to the region's country (editions without: through the regions of an
 * edition that has them).
 */

import type { CloudRegion } from "../data/types.js";

/** A region spelling as the billing query compares it: lower case, no blanks, hyphens or underscores. */
export function spellingKey(text: string): string {
  return text.toLowerCase().replace(/[\s_-]+/g, "");
}

/**
 * Azure's billing zone names of its regions, as older cost exports write `ResourceLocation`
 * (`EU West`), keyed by `spellingKey`; the display names (`West Europe`) need no entry, their key
 * being the region id.
 */
const AZURE_BILLING_NAMES: Readonly<Record<string, string>> = {
  euwest: "westeurope",
  eunorth: "northeurope",
  useast: "eastus",
  useast2: "eastus2",
  uswest: "westus",
  uswest2: "westus2",
  uswest3: "westus3",
  uscentral: "centralus",
  usnorthcentral: "northcentralus",
  ussouthcentral: "southcentralus",
  uswestcentral: "westcentralus",
  apeast: "eastasia",
  apsoutheast: "southeastasia",
  jaeast: "japaneast",
  jawest: "japanwest",
  brsouth: "brazilsouth",
  aueast: "australiaeast",
  ausoutheast: "australiasoutheast",
  aucentral: "australiacentral",
  incentral: "centralindia",
  insouth: "southindia",
  inwest: "westindia",
  cacentral: "canadacentral",
  caeast: "canadaeast",
  krcentral: "koreacentral",
  krsouth: "koreasouth",
  frcentral: "francecentral",
  frsouth: "francesouth",
  dewestcentral: "germanywestcentral",
  denorth: "germanynorth",
  chnorth: "switzerlandnorth",
  chwest: "switzerlandwest",
  noeast: "norwayeast",
  nowest: "norwaywest",
  zanorth: "southafricanorth",
  zawest: "southafricawest",
  aenorth: "uaenorth",
  aecentral: "uaecentral",
  secentral: "swedencentral",
  qacentral: "qatarcentral",
  plcentral: "polandcentral",
  itnorth: "italynorth",
  ilcentral: "israelcentral",
  mxcentral: "mexicocentral",
  escentral: "spaincentral",
};

interface BillingPlace {
  readonly provider: string;
  readonly spelling: string;
  /** The coefficient table's place: the region id, or a country code in an edition without regions. */
  readonly place: string;
}

/**
 * The places of an edition. `own` are the edition's regions (null without); `known` are the
 * regions of an edition that has them, read for their countries when `own` is null.
 */
export function billingPlaces(
  own: readonly CloudRegion[] | null,
  known: readonly CloudRegion[],
): BillingPlace[] {
  const regions = own ?? known;
  const places = new Map<string, BillingPlace>();
  const add = (provider: string, spelling: string, place: string) => {
    const key = `${provider}\u0000${spelling}`;
    if (!places.has(key)) places.set(key, { provider, spelling, place });
  };
  for (const region of regions) {
    add(region.provider, spellingKey(region.region), own ? region.region : region.usageLocation);
  }
  for (const [name, id] of Object.entries(AZURE_BILLING_NAMES)) {
    const region = regions.find((row) => row.provider === "azure" && row.region === id);
    if (region) add("azure", name, own ? region.region : region.usageLocation);
  }
  return [...places.values()];
}
