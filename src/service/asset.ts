import type { Asset } from "../engine/index.js";

/**
 * An asset ready to evaluate: its model is built on first use (a client selecting no impact never
 * pays for it), and the use time its request gave, if any. An asset whose type reads more of its
 * model than its impacts builds an `AssetWith<Shape>` (evaluatedShape,
 * src/service/evaluations/evaluations.ts).
 */
export interface PreparedAsset {
  readonly build: () => Asset;
  /** Hours of the cumulative `*_use_time` usage fields, when given. */
  readonly usageHours: number | null;
}
