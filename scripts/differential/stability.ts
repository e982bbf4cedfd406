/**
 * Whether the reference's own answer to a consumption-profile request is stable: the same request
 * sent again with its workload inputs moved by one unit in the last place (each power one double up,
 * then down; each load one double up, then down). SciPy's fit of an ill-conditioned workload (two
 * distinct loads, `c` pinned at its bound 0) is decided by rounding: such a nudge moves its answer by
 * more than the comparison tolerance. Where it does, a difference of the service is the reference's
 * floating-point noise, named apart in the report ("reference unstable", docs/DEVIATIONS.md).
 */

import { nextToward } from "../../src/engine/numeric/boundedLeastSquares.js";

interface Nudge {
  /** What was moved, for the report: `power_watt +1 ulp`, … */
  readonly probe: string;
  readonly body: unknown;
}

const FIELDS = ["power_watt", "load_percentage"] as const;

/** The request body's copies with every numeric workload `field` moved one double towards ±∞. */
export function nudgedBodies(body: unknown): Nudge[] {
  const workload = (body as { workload?: unknown } | null)?.workload;
  if (!Array.isArray(workload) || workload.length === 0) return [];
  const nudges: Nudge[] = [];
  for (const field of FIELDS) {
    for (const [sign, towards] of [
      ["+", Number.POSITIVE_INFINITY],
      ["−", Number.NEGATIVE_INFINITY],
    ] as const) {
      let moved = false;
      const points = workload.map((point: unknown) => {
        if (point === null || typeof point !== "object") return point;
        const value = (point as Record<string, unknown>)[field];
        if (typeof value !== "number" || !Number.isFinite(value)) return point;
        moved = true;
        return { ...point, [field]: nextToward(value, towards) };
      });
      if (moved)
        nudges.push({ probe: `${field} ${sign}1 ulp`, body: { ...(body as object), workload: points } });
    }
  }
  return nudges;
}
