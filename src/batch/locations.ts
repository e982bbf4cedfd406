/*
 * A usage location the line's edition does not know is replaced by the default one (§5.1), and
 * the v1 answer — like the reference's — says nothing: `France` or `fra` silently costs the
 * default mix. A batch answer line (and the command line's row) carries a warning instead, the
 * route's body left as it is. The edition's locations are asked once per batch and edition of
 * the route that lists them, through the same evaluator as the lines: a line naming no edition asks
 * the list without one, answered in the edition the evaluator serves such lines (a batch's, as its
 * transport resolved it), which its warning names.
 */

const LOCATIONS_PATH = "/v1/utils/country_code";
/** A location longer than this is shown cut in its warning. */
const SHOWN_CHARACTERS = 40;

/** The warnings of a line's location, given the edition its path names (undefined: the default one). */
export type LocationCheck = (location: unknown, edition: string | undefined) => Promise<readonly string[]>;

/** How the edition's locations are asked: a batch line's evaluator (line.ts's RouteEvaluator). */
type ListingEvaluator = (call: {
  readonly method: string;
  readonly url: string;
  readonly body: string;
}) => Promise<{ readonly status: number; readonly body: unknown }>;

export function locationCheck(evaluate: ListingEvaluator, resolvedEdition?: string): LocationCheck {
  const known = new Map<string, Promise<ReadonlySet<string> | null>>();
  const locationsOf = (edition: string | undefined) => {
    const key = edition ?? "";
    let codes = known.get(key);
    if (codes === undefined) {
      const query = edition === undefined ? "" : `?${new URLSearchParams({ edition })}`;
      codes = evaluate({ method: "GET", url: `${LOCATIONS_PATH}${query}`, body: "" }).then((answer) =>
        answer.status === 200 && typeof answer.body === "object" && answer.body !== null
          ? new Set(Object.values(answer.body).filter((code): code is string => typeof code === "string"))
          : null,
      );
      known.set(key, codes);
    }
    return codes;
  };
  return async (location, edition) => {
    if (typeof location !== "string") return [];
    const codes = await locationsOf(edition);
    if (codes === null || codes.has(location)) return [];
    const named = edition ?? resolvedEdition;
    const shown = location.length > SHOWN_CHARACTERS ? `${location.slice(0, SHOWN_CHARACTERS)}…` : location;
    return [
      `usage_location ${JSON.stringify(shown)} is not a location of ${named === undefined ? "the default edition" : `edition ${named}`} (see ${LOCATIONS_PATH}): the default location's electricity was used`,
    ];
  };
}
