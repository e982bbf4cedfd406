import type { EditionService } from "../../service/open.js";
import { IfCloudRegionsDocument } from "../generated/graphql.js";
import { errorLine, run } from "./run.js";

export type KnownRegions = { regions: ReadonlySet<string> } | { refused: string };

/** The regions of a provider in an edition (or why there are none), asked once per plugin instance. */
export function regionsOnce(): (provider: string, edition: EditionService) => Promise<KnownRegions> {
  const known = new Map<string, Promise<KnownRegions>>();
  return (provider, edition) => {
    const key = `${edition.edition.id}\n${provider}`;
    let regions = known.get(key);
    if (!regions) {
      regions = run(IfCloudRegionsDocument, { provider }, edition).then((result) =>
        result.errors?.length
          ? { refused: errorLine(result.errors) }
          : {
              regions: new Set(
                (result.data as { cloudRegions: { region: string }[] }).cloudRegions.map((row) => row.region),
              ),
            },
      );
      known.set(key, regions);
    }
    return regions;
  };
}

/**
 * The service falls back to `location` (or the edition's default) for a region it does not know,
 * or ignores `usage.region` in an edition without regions (1.2.4), and says so nowhere an impact
 * shows (docs/methodology.md Appendix D.11): the plugin says it in `boavizta/warnings`.
 */
export async function regionNotices(
  regionsOf: ReturnType<typeof regionsOnce>,
  provider: string,
  region: string | undefined,
  edition: EditionService,
): Promise<readonly string[]> {
  if (region === undefined) return [];
  const known = await regionsOf(provider, edition);
  if ("refused" in known) {
    return [
      `cloud/region '${region}' not used (${known.refused}): the location, or the edition's default, is used`,
    ];
  }
  return known.regions.has(region.trim())
    ? []
    : [
        `Region '${region}' not found for provider '${provider}': the location, or the edition's default, is used`,
      ];
}
