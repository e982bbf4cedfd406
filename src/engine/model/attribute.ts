import type { ArchetypeCell, CellValue } from "../../data/types.js";

/** Provenance of an attribute's value (docs/methodology.md §2.3). `NONE`: never read nor written. */
type AttributeStatus = "NONE" | "INPUT" | "COMPLETED" | "DEFAULT" | "CHANGED" | "ARCHETYPE";

export interface WorkloadShare {
  readonly timePercentage: number;
  readonly loadPercentage: number;
}

/** Values an attribute may carry: numbers, labels, profile parameters, workload lists. */
export type AttributeValue =
  | number
  | string
  | { readonly [key: string]: number }
  | readonly WorkloadShare[]
  | readonly { readonly load_percentage: number; readonly power_watt: number }[];

interface CompletedBounds<T> {
  readonly min?: T | null;
  readonly max?: T | null;
  readonly source?: string;
}

/**
 * A modelled quantity with lazy completion (docs/methodology.md §2).
 *
 * The reference's verbose output reveals exactly which attributes were read and in which order
 * (status set on first read, min/max cached on first bound read), so that behaviour is kept on
 * purpose: `value` completes on first read, `min`/`max` cache the stored value on first read
 * (Appendix D.29). One instance belongs to one evaluation; nothing is shared across requests.
 */
export class Attribute<T extends AttributeValue = AttributeValue> {
  private stored: T | null = null;
  private storedMin: T | null;
  private storedMax: T | null;
  status: AttributeStatus = "NONE";
  source: string | null = null;
  /** Notes about the value (made on the first: most attributes of a model have none). */
  private notes: string[] | null = null;
  /** Completion routine run when the value is read while empty (§2.1 step 1): `completeWith`. */
  private complete: (() => void) | null = null;

  constructor(
    public unit: string | null,
    readonly defaultValue: T | null = null,
    min: T | null = null,
    max: T | null = null,
  ) {
    this.storedMin = min;
    this.storedMax = max;
  }

  /**
   * Sets the completion routine (§2.1 step 1). Routines are given here, never written as
   * `attribute.complete = () => …`: V8's parser takes a function literal assigned to a property
   * for a long-lived method and allocates it in the old generation, where it keeps its captured
   * scope — the whole model — alive through every young collection until the next full one, so
   * a 1,000,000-line batch's models fill the old generation (bench/README.md, "Completion routines
   * given as arguments"). A literal passed as an argument is allocated young and dies with its model.
   */
  completeWith(routine: () => void): void {
    this.complete = routine;
  }

  /** Builds an attribute from an archetype cell: default, min and max as parsed (§3.3). */
  static fromCell<V extends AttributeValue>(
    unit: string | null,
    cell: ArchetypeCell | undefined,
  ): Attribute<V> {
    if (cell === undefined) return new Attribute<V>(unit);
    return new Attribute<V>(unit, cellValue<V>(cell.default), cellValue<V>(cell.min), cellValue<V>(cell.max));
  }

  /** Notes about the value, in the order written (the verbose `warnings`). */
  get warnings(): readonly string[] {
    return this.notes ?? NO_WARNINGS;
  }

  warn(text: string): void {
    if (this.notes === null) this.notes = [text];
    else this.notes.push(text);
  }

  get value(): T | null {
    if (this.stored === null) {
      this.complete?.();
      if (this.stored === null && this.defaultValue !== null) {
        this.stored = this.defaultValue;
        this.status = "ARCHETYPE";
      }
    }
    return this.stored;
  }

  /** §2.2: an empty bound caches the stored value (without completing it). */
  get min(): T | null {
    if (this.storedMin === null) this.storedMin = this.stored;
    return this.storedMin;
  }

  get max(): T | null {
    if (this.storedMax === null) this.storedMax = this.stored;
    return this.storedMax;
  }

  /** The stored value without triggering completion. */
  peek(): T | null {
    return this.stored;
  }

  isSet(): boolean {
    return this.status !== "NONE";
  }

  /** "A value is stored or a default exists" — does not complete (§2.3). */
  hasValue(): boolean {
    return this.stored !== null || this.defaultValue !== null;
  }

  setInput(value: T): void {
    this.stored = value;
    this.storedMin = value;
    this.storedMax = value;
    this.status = "INPUT";
  }

  /** Completed values only overwrite the bounds explicitly given; others keep their previous bound. */
  setCompleted(value: T | null, bounds: CompletedBounds<T> = {}): void {
    this.stored = value;
    this.status = "COMPLETED";
    if (bounds.min !== undefined) this.storedMin = bounds.min;
    if (bounds.max !== undefined) this.storedMax = bounds.max;
    if (bounds.source !== undefined) this.source = bounds.source;
  }

  setDefault(value: T, source?: string): void {
    this.stored = value;
    this.status = "DEFAULT";
    if (source !== undefined) this.source = source;
  }

  setChanged(value: T | null): void {
    this.stored = value;
    this.status = "CHANGED";
  }

  setArchetype(value: T): void {
    this.stored = value;
    this.status = "ARCHETYPE";
  }

  /** Writes bounds directly (electricity factors of the default location, §5.2 step 4). */
  setBounds(min: T | null, max: T | null): void {
    this.storedMin = min;
    this.storedMax = max;
  }

  numberValue(): number {
    return asNumber(this.value);
  }

  numberMin(): number {
    return asNumber(this.min);
  }

  numberMax(): number {
    return asNumber(this.max);
  }

  /** The lower bound exactly as stored (not cached from the value), for the verbose dump. */
  storedLowerBound(): T | null {
    return this.storedMin;
  }

  /** The upper bound exactly as stored, for the verbose dump. */
  storedUpperBound(): T | null {
    return this.storedMax;
  }
}

const NO_WARNINGS: readonly string[] = Object.freeze([]);

function cellValue<V extends AttributeValue>(value: CellValue | undefined): V | null {
  return value === undefined ? null : (value as V);
}

/** Numeric read of an attribute value; a missing number is a modelling gap, not a client error. */
function asNumber(value: AttributeValue | null): number {
  if (typeof value === "number") return value;
  if (typeof value === "string" && value.trim() !== "" && !Number.isNaN(Number(value))) return Number(value);
  throw new MissingValueError("a numeric attribute has no value");
}

/**
 * An outcome of the methodology thrown through a formula, not a fault: its stack is never read, so
 * none is captured (a fleet's totals throw one per item, criterion and phase; capturing their
 * stacks costs 30 aliased totals of 24 criteria a quarter of their time, bench/README.md "Fleet
 * totals").
 */
abstract class MethodologyOutcome extends Error {
  constructor(message: string) {
    const { stackTraceLimit } = Error;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = stackTraceLimit;
  }
}

/** Thrown when a formula needs a value the model cannot supply; callers report "not implemented". */
export class MissingValueError extends MethodologyOutcome {}

/** The methodology's "not implemented" outcome for one criterion and phase (§4.0). */
export class NotImplementedError extends MethodologyOutcome {}

/**
 * A figure the computation of one criterion needs and nothing gives, where the reference fails
 * the whole request rather than answering "not implemented" for the criterion: not an outcome of
 * the evaluation (it passes through it), the request is refused naming the input `field` (relative
 * to the component's own input) that would supply it.
 */
export class RequiredInputError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = "RequiredInputError";
  }
}
