import { type Allocation, type AssetWith, Evaluation } from "../../engine/index.js";
import type { PreparedAsset } from "../asset.js";
import { requestedCriteria } from "../criteria.js";
import { DomainError } from "../errors.js";
import { REASONABLE, reasonable } from "../inputs.js";
import type { RequestContext } from "../requestState.js";

/** What the transports read of an evaluation: its outcomes, its verbose report and their parts. */
export type {
  CriterionImpact,
  Evaluation,
  PhaseOutcome,
  VerboseAttribute,
  VerboseComponent,
  VerboseReport,
} from "../../engine/index.js";

/** How an asset is evaluated: the criteria as spelled, the duration in hours, the allocation. */
export interface EvaluationArgs {
  readonly criteria?: readonly string[] | null;
  readonly duration?: number | null;
  readonly allocation?: Allocation | null;
}

/** The duration asked for, checked: a non-negative number of hours, 0 or within the reasonable bounds. */
export function checkDuration(duration: number | null | undefined): void {
  if (duration != null && !(duration >= 0 && reasonable.safeParse(duration).success)) {
    throw new DomainError(
      "BAD_USER_INPUT",
      `duration must be a non-negative number of hours, 0 or within ${REASONABLE.smallest}–${REASONABLE.largest}`,
      ["duration"],
    );
  }
}

/** What selects an evaluation of an asset: (duration, allocation, the criteria as spelled). */
function evaluationKey(asset: PreparedAsset, args: EvaluationArgs): string {
  // The criteria as spelled select the evaluation; they are resolved against the edition of the
  // asset once it is built (the edition's default criteria when none are named: a key of its own).
  return `${args.duration ?? asset.usageHours}|${args.allocation ?? "LINEAR"}|${args.criteria?.join(",") ?? "default"}`;
}

function newEvaluation(prepared: PreparedAsset, args: EvaluationArgs): Evaluation {
  const asset = prepared.build();
  const criteria = requestedCriteria(args.criteria, asset.rules);
  return new Evaluation(asset, {
    duration: args.duration ?? prepared.usageHours,
    allocation: args.allocation ?? "LINEAR",
    criteria,
  });
}

/**
 * One evaluation per asset, (duration, allocation) and requested criteria within a request:
 * each answers exactly what the REST route answers for the same query (an evaluation's numbers
 * depend on its criteria set, since completion happens during the first computation).
 */
export function evaluationFor(
  context: RequestContext,
  asset: PreparedAsset,
  args: EvaluationArgs,
): Evaluation {
  checkDuration(args.duration);
  let byOptions = context.evaluations.get(asset);
  if (!byOptions) {
    byOptions = new Map();
    context.evaluations.set(asset, byOptions);
  }
  const key = evaluationKey(asset, args);
  let evaluation = byOptions.get(key);
  if (!evaluation) {
    evaluation = newEvaluation(asset, args);
    byOptions.set(key, evaluation);
  }
  return evaluation;
}

/**
 * What a field of an asset's type reads of its model besides its impacts (a cloud instance's
 * hostShare): the shape of the request's evaluation of it with `args` (none: the default
 * evaluation), the model its impacts and verbose read — never a second model.
 */
export function evaluatedShape<Shape>(
  context: RequestContext,
  asset: PreparedAsset & { readonly build: () => AssetWith<Shape> },
  args: EvaluationArgs = {},
): Shape {
  // The evaluation's asset is `asset.build()`'s, whose shape is a Shape.
  return evaluationFor(context, asset, args).asset.shape as Shape;
}

/**
 * The request's evaluation of an asset if it has one, else a new one it does not keep: what a
 * fleet's total reads, item after item, without holding every item's evaluation to the end of
 * the request (the duration is checked by the caller).
 */
export function passingEvaluation(
  context: RequestContext,
  asset: PreparedAsset,
  args: EvaluationArgs,
): Evaluation {
  return context.evaluations.get(asset)?.get(evaluationKey(asset, args)) ?? newEvaluation(asset, args);
}

/**
 * A fleet item's evaluations handed from one of its two readers to the other — the fleet's totals
 * pass and the item's own completion, each reading them once, in either order — and forgotten by
 * the second: a fleet's evaluations otherwise lived as long as its request (its items are the
 * keys, and the totals hold the items to the end), 10,000 servers' some 180 MB that every major
 * collection marked while other requests waited (bench/README.md, "Single requests during
 * fleets"). A reader coming later (none, where the caller hands over) would evaluate the item
 * again, with the same numbers: an evaluation's numbers are its asset's and arguments'.
 */
export function evaluationHandover(context: RequestContext): (asset: object) => void {
  const readOnce = new WeakSet<object>();
  return (asset) => {
    if (readOnce.delete(asset)) context.evaluations.delete(asset);
    else readOnce.add(asset);
  };
}
