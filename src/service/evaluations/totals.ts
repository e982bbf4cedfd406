import type { EditionRules, Evaluation, Phase, RawImpact, RequestedCriterion } from "../../engine/index.js";
import { rounded } from "../../engine/index.js";
import type { PreparedAsset } from "../asset.js";
import { requestedCriteria } from "../criteria.js";
import type { RequestContext } from "../requestState.js";
import { checkDuration, type EvaluationArgs, evaluationFor, passingEvaluation } from "./evaluations.js";

/** A criterion's phase summed over a fleet's items, rounded as the edition rounds an item. */
export interface PhaseTotal {
  readonly value: number;
  readonly min: number;
  readonly max: number;
  readonly warnings: readonly string[];
  /** Items contributing to the sum. */
  readonly items: number;
  /** Items for which the phase is not implemented. */
  readonly notImplemented: number;
}

/** The running sum of one criterion's phase, item after item in the fleet's order. */
class PhaseSum {
  private value = 0;
  private min = 0;
  private max = 0;
  private items = 0;
  private notImplemented = 0;
  private readonly warnings = new Set<string>();
  private readonly notices = new Set<string>();

  add(raw: RawImpact | null, notices: readonly string[]): void {
    for (const notice of notices) this.notices.add(notice);
    if (raw === null) {
      this.notImplemented++;
      return;
    }
    this.items++;
    this.value += raw.value;
    this.min += raw.min;
    this.max += raw.max;
    for (const warning of raw.warnings) this.warnings.add(warning);
  }

  /** The sum rounded like an item; the items' GraphQL notices join its warnings. */
  total(rules: EditionRules): PhaseTotal {
    const { items, notImplemented } = this;
    if (items === 0) return { value: 0, min: 0, max: 0, warnings: [], items, notImplemented };
    const summed = rounded(
      { value: this.value, min: this.min, max: this.max, warnings: [...this.warnings] },
      rules.roundImpact,
    );
    if (this.notices.size > 0) summed.warnings = [...new Set([...summed.warnings, ...this.notices])];
    return { ...summed, items, notImplemented };
  }
}

interface Asked {
  readonly criterion: RequestedCriterion;
  readonly phase: Phase;
  readonly sum: PhaseSum;
  readonly resolve: (total: PhaseTotal) => void;
  readonly reject: (error: unknown) => void;
}

/** The total of one of a fleet's criteria and phases, computed once asked for. */
type FleetTotal = (criterion: RequestedCriterion, phase: Phase) => Promise<PhaseTotal>;

/** A fleet's evaluated items, the rules of their edition and whether its items select their own impacts. */
interface Fleet {
  readonly items: readonly PreparedAsset[];
  readonly rules: EditionRules;
  /** The items' own impacts are answered too: the totals keep the evaluations they make for them. */
  readonly itemsEvaluated: boolean;
  /** Told of each item once the totals pass has read its evaluation (evaluationHandover). */
  readonly summed?: (item: PreparedAsset) => void;
}

/**
 * A fleet's totals for an evaluation's arguments: its criteria, checked against the edition
 * (and the duration, when there are items to evaluate), and the sum of each criterion's phase.
 */
export function fleetTotals(
  context: RequestContext,
  fleet: Fleet,
  args: EvaluationArgs,
): { readonly criteria: RequestedCriterion[]; readonly total: FleetTotal } {
  if (fleet.items.length > 0) checkDuration(args.duration);
  const criteria = requestedCriteria(args.criteria, fleet.rules);
  const evaluate = fleet.itemsEvaluated ? evaluationFor : passingEvaluation;
  return { criteria, total: summedItemByItem(context, fleet, (item) => evaluate(context, item, args)) };
}

/**
 * The phases asked for in one turn of the event loop (the fields a client selected, which GraphQL
 * resolves together) are summed in one pass over the items: each item's evaluation is made, read
 * for every asked phase and, unless the items keep it, dropped before the next item's. A request's
 * memory then does not grow with its totals (30 aliased totals of 24 criteria over 300 servers
 * would otherwise keep 9,000 evaluations, 300–384 MB, bench/README.md "Fleet totals"). A phase asked
 * for later (a deferred field) makes a pass of its own.
 */
function summedItemByItem(
  context: RequestContext,
  fleet: Fleet,
  evaluate: (item: PreparedAsset) => Evaluation,
): FleetTotal {
  let gathering: Asked[] | null = null;

  function pass(asked: Asked[]): void {
    // The pass starts on a later turn of the event loop (eventLoopSlices.ts): what is asked for until
    // its first item joins it.
    const summed = context.chunks.map(fleet.items, (item) => {
      if (gathering === asked) gathering = null;
      const evaluation = evaluate(item);
      for (const { criterion, phase, sum } of asked) {
        sum.add(evaluation.raw(criterion, phase), evaluation.notices(criterion, phase));
      }
      fleet.summed?.(item);
    });
    summed.then(
      () => {
        if (gathering === asked) gathering = null;
        for (const { sum, resolve } of asked) resolve(sum.total(fleet.rules));
      },
      (error: unknown) => {
        if (gathering === asked) gathering = null;
        for (const { reject } of asked) reject(error);
      },
    );
  }

  return (criterion, phase) =>
    new Promise((resolve, reject) => {
      if (gathering === null) {
        gathering = [];
        pass(gathering);
      }
      gathering.push({ criterion, phase, sum: new PhaseSum(), resolve, reject });
    });
}
