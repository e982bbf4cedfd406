/*
 * The service's copy of the last scan's gauges (src/scan/schedule.ts reads them from the scan's
 * command, `scan aws --metrics=-`): Prometheus's text, each family's samples grouped by their
 * `awsregion`, so that `/metrics` writes every region's or one region's without parsing or
 * evaluating anything at a scrape. Its size is the command's text, bounded by the series a scan
 * exports (src/scan/scanGauges.ts: MAX_RESOURCE_SERIES_BYTES).
 */

/** A scan's gauges as the service keeps them between scrapes. */
export interface ServedGauges {
  /** The regions the text names, in its order. */
  readonly regions: readonly string[];
  /** Bytes of the text kept. */
  readonly bytes: number;
  /** The gauges of every region, or of `region` alone, in Prometheus's text format. */
  text(region: string | null): string;
}

interface Family {
  /** Its `# HELP` and `# TYPE` lines. */
  readonly head: string[];
  readonly samples: { readonly region: string; readonly line: string }[];
}

const REGION_LABEL = /[{,]awsregion="((?:[^"\\]|\\.)*)"/;

/** The families of a text, in order: a `# HELP` line starts one. */
function familiesOf(text: string): Family[] {
  const families: Family[] = [];
  for (const line of text.split("\n")) {
    if (line === "") continue;
    if (line.startsWith("# HELP ")) families.push({ head: [line], samples: [] });
    else if (line.startsWith("#")) families.at(-1)?.head.push(line);
    else families.at(-1)?.samples.push({ region: REGION_LABEL.exec(line)?.[1] ?? "", line });
  }
  return families;
}

/** The gauges of a scan's text; null when it holds none (not the command's gauges). */
export function servedGaugesOf(text: string): ServedGauges | null {
  const families = familiesOf(text);
  if (families.length === 0 || families.every((family) => family.samples.length === 0)) return null;
  const regions = [...new Set(families.flatMap((family) => family.samples.map((sample) => sample.region)))];
  // Each text is made once, at its first scrape: the scan's gauges do not change until the next.
  const written = new Map<string, string>();
  const write = (region: string | null) =>
    `${families
      .map((family) =>
        [
          ...family.head,
          ...family.samples.flatMap((sample) =>
            region === null || sample.region === region ? [sample.line] : [],
          ),
        ].join("\n"),
      )
      .join("\n\n")}\n`;
  return {
    regions,
    bytes: text.length,
    text(region) {
      const key = region ?? "";
      let made = written.get(key);
      if (made === undefined) {
        made = write(region);
        written.set(key, made);
      }
      return made;
    },
  };
}
