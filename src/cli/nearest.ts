import { distance } from "fuzzball";

/*
 * What the command line says of a word it does not know (an option, a command, an edition, a
 * criterion, a format): the valid words nearest to it, so that a typo is answered with its fix in
 * the same line ("did you mean --edition?"). Near, case and leading dashes aside: within an edit
 * distance (fuzzball's Levenshtein) of a third of the word's length, at least one edit; the same
 * letters swapped; or one word starting the other. A one-letter word is near only its own case.
 */

const sorted = (word: string) => [...word].sort().join("");

/** The suggestions a line names at most. */
const MOST = 3;

/** The valid words nearest to `given`, closest first (none when none is near). */
export function nearest(given: string, valid: readonly string[]): string[] {
  const word = given.toLowerCase();
  const bare = word.replace(/^-+/, "");
  if (bare === "") return [];
  const reach = Math.max(1, Math.floor(bare.length / 3));
  return valid
    .map((candidate) => {
      const other = candidate.toLowerCase();
      const otherBare = other.replace(/^-+/, "");
      const edits = distance(bare, otherBare);
      const long = Math.min(bare.length, otherBare.length) >= 2;
      const prefix = long && (otherBare.startsWith(bare) || bare.startsWith(otherBare));
      // Letters swapped (`cvs`) are two edits for Levenshtein: near too.
      const swapped = long && edits <= 2 && sorted(bare) === sorted(otherBare);
      return { candidate, edits, near: edits === 0 || (long && edits <= reach) || prefix || swapped };
    })
    .filter(({ near, candidate }) => near && candidate !== given)
    .sort((a, b) => a.edits - b.edits)
    .slice(0, MOST)
    .map(({ candidate }) => candidate);
}

/** `; did you mean X?` (or `X or Y`) when a valid word is near `given`; else nothing. */
export function didYouMean(given: string, valid: readonly string[]): string {
  const near = nearest(given, valid);
  if (near.length === 0) return "";
  const last = near[near.length - 1];
  return `; did you mean ${near.length === 1 ? last : `${near.slice(0, -1).join(", ")} or ${last}`}?`;
}
