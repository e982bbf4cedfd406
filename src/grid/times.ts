/*
 * A date or time of an inventory's period, as ISO 8601 writes it: `2024-01-01`,
 * `2024-01-01T13:00`, `2024-01-01 13:00:00.5Z`, `2024-01-01T14:00+01:00`; UTC unless an offset says
 * otherwise, within ±14:00 (docs/inventory.md, "Grid intensity series").
 */

/** Fixed fields only, each optional part once: no backtracking on a cell of any length. */
const ISO_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?\s?(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;

const MINUTE_MS = 60_000;

/** The widest offset of a time zone in use (Kiribati's +14:00): a wider one is no place's time. */
export const MAX_OFFSET_MINUTES = 14 * 60;

/** The offset's minutes east of UTC (`+01:00` → 60), or null when no place has it (`+99:99`). */
function offsetMinutes(offset: string | undefined): number | null {
  if (offset === undefined || offset.toUpperCase() === "Z") return 0;
  const sign = offset.startsWith("-") ? -1 : 1;
  const digits = offset.slice(1).replace(":", "");
  const [hours, minutes] = [Number(digits.slice(0, 2)), Number(digits.slice(2) || "0")];
  if (minutes > 59 || hours * 60 + minutes > MAX_OFFSET_MINUTES) return null;
  return sign * (hours * 60 + minutes);
}

/** The time in epoch milliseconds, or null when the text is not a valid ISO date or time. */
export function utcMilliseconds(text: string): number | null {
  const match = ISO_TIME.exec(text.trim());
  if (match === null) return null;
  const [, year, month, day, hour = "0", minute = "0", second = "0", fraction = "0", offset] = match;
  const fields = [year, month, day, hour, minute, second].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const [y, mo, d, h, mi, s] = fields;
  const offsetShift = offsetMinutes(offset);
  if (offsetShift === null) return null;
  const time = Date.UTC(y, mo - 1, d, h, mi, s, Number(`0.${fraction}`) * 1000);
  // Date.UTC rolls over (February 30th is March 1st): a field out of its range is not a date.
  const date = new Date(time);
  if (
    date.getUTCFullYear() !== y ||
    date.getUTCMonth() !== mo - 1 ||
    date.getUTCDate() !== d ||
    h > 23 ||
    mi > 59 ||
    s > 59
  )
    return null;
  return time - offsetShift * MINUTE_MS;
}

/** A time as the output writes it: `2024-01-01T13:00:00Z`. */
export function isoUtc(milliseconds: number): string {
  return new Date(milliseconds).toISOString().replace(/\.000Z$/, "Z");
}
