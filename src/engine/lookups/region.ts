/**
 * Cloud regions of edition 2.4.1 (docs/methodology.md §19.7.5): a provider's region stands for a
 * usage location (`regions.csv`: provider, region, country code).
 */

import type { CloudRegion } from "../../data/types.js";
import { flatText } from "../model/flatText.js";

export type { CloudRegion };

/** Where the location of a cloud usage comes from, before it is checked against the country codes. */
interface CloudLocation {
  /** The location to use, or null when neither the region nor `usage_location` gives one. */
  readonly location: string | null;
  /**
   * §7.5 step 3: a location is COMPLETED (not INPUT) whenever a region and a provider were given,
   * even when it came from the `usage_location` fallback (kept quirk, Appendix D.11).
   */
  readonly completed: boolean;
  /** The warning of an unknown region, attached to the instance's `usage_location`. */
  readonly warning: string | null;
}

/** Flat: it is shown in the answer (flatText.ts). */
export function regionNotFound(region: string, provider: string): string {
  return flatText(
    `Region '${region}' not found for provider '${provider}'. Falling back to usage_location if provided.`,
  );
}

/** The first row of a provider's region, both compared trimmed and case-sensitively (Appendix D.11). */
function regionOf(regions: readonly CloudRegion[], provider: string, region: string): CloudRegion | null {
  const p = provider.trim();
  const r = region.trim();
  return regions.find((row) => row.provider === p && row.region === r) ?? null;
}

/**
 * §7.5 steps 1–2: the region of the body's provider wins over `usage_location`, which is the
 * fallback of an unknown region. `usageLocation` is the location left after the default-location
 * reset of §3.5 (an explicit default counts as absent).
 */
export function cloudLocation(
  regions: readonly CloudRegion[],
  provider: string | null | undefined,
  region: string | null | undefined,
  usageLocation: string | null | undefined,
): CloudLocation {
  // The reference tests the two strings for truthiness: an empty region is no region.
  const byRegion = !!region && !!provider;
  let warning: string | null = null;
  if (byRegion) {
    const row = regionOf(regions, provider as string, region as string);
    if (row) return { location: row.usageLocation, completed: true, warning: null };
    warning = regionNotFound(region as string, provider as string);
  }
  return { location: usageLocation ?? null, completed: byRegion, warning };
}

/** `/v1/utils/cloud_regions`: the rows in file order, of one provider when given (exact name). */
export function regionsOf(
  regions: readonly CloudRegion[],
  provider: string | null | undefined,
): CloudRegion[] {
  return provider == null ? [...regions] : regions.filter((row) => row.provider === provider);
}
