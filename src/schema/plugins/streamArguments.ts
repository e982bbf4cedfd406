import {
  type DocumentNode,
  type FieldNode,
  GraphQLError,
  type GraphQLResolveInfo,
  type GraphQLSchema,
  getDirectiveValues,
  Kind,
  type SelectionSetNode,
  visit,
} from "graphql";
import { isAsyncIterable, type Plugin } from "graphql-yoga";
import { SLICE_MS } from "../../service/eventLoopSlices.js";
import type { RequestContext } from "../../service/requestState.js";
import { badUserInput } from "../errors.js";
import { handOutInSlices, type Slicing } from "../execution/scheduling.js";

/*
 * `@stream` on a fleet's items, with a cost linear in the items. The executor (graphql-tools')
 * keeps one record per streamed item of a list and, on each payload it sends, races every record
 * still pending: a 10,000-item list of pending promises made that N² (3,000 races over 3,000
 * promises exhausted a 768 MB heap). Given an async iterable instead, it completes the items one
 * after the other, so the records pending at once are the few not sent yet. The items are handed
 * out in slices of about SLICE_MS with a turn of the event loop between slices
 * (handOutInSlices, as for an unstreamed fleet).
 */

/** Whether this field of the operation carries an active `@stream` (its `if` not false). */
export function isStreamed(info: GraphQLResolveInfo): boolean {
  const directive = info.schema.getDirective("stream");
  const node = info.fieldNodes[0];
  if (!directive || !node.directives?.some((d) => d.name.value === "stream")) return false;
  const values = getDirectiveValues(directive, node, info.variableValues);
  return values !== undefined && values.if !== false;
}

/**
 * A request's streamed items handed to the executor against those it has sent: the executor reads
 * an async iterable as fast as it yields and keeps each item's record (its completed value, its
 * promises) until the reader takes the payload, so without a pace a fleet streamed to a slower
 * reader is held whole, and the executor races all of those records on every payload.
 */
class StreamPace {
  private handedOut = 0;
  private sent = 0;
  private ended = false;
  private waiters: (() => void)[] = [];

  /** Counts items handed to the executor that go out in incremental payloads. */
  handOut(count: number): void {
    this.handedOut += count;
  }

  /** A payload was taken by the reader: its streamed items are sent. */
  delivered(items: number): void {
    this.sent += items;
    if (this.sent >= this.handedOut) this.release();
  }

  /** The answer ended (done, failed or abandoned): nothing waits any more. */
  end(): void {
    this.ended = true;
    this.release();
  }

  /** Resolves once every item handed out so far is sent (or the answer ended). */
  caughtUp(): Promise<void> | undefined {
    if (this.ended || this.sent >= this.handedOut) return undefined;
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  private release(): void {
    for (const resolve of this.waiters.splice(0)) resolve();
  }
}

/** The pace of each request answered incrementally (by its GraphQL context), set by streamArgumentsPlugin. */
const paces = new WeakMap<object, StreamPace>();

/** The items of an incremental payload's streamed entries. */
function streamedItemsOf(payload: unknown): number {
  const incremental = (payload as { incremental?: readonly { items?: readonly unknown[] | null }[] })
    ?.incremental;
  return incremental?.reduce((sum, entry) => sum + (entry.items?.length ?? 0), 0) ?? 0;
}

/**
 * The fleet's entries as an async iterable, a slice per turn of the event loop (see above); a
 * slice is handed out once the items of the previous ones are sent (StreamPace), so the items in
 * memory are a slice or two whatever the fleet's size and the reader's speed.
 */
export function streamInSlices<T>(
  entries: readonly T[],
  signal: AbortSignal,
  context: RequestContext,
  info: GraphQLResolveInfo,
): AsyncGenerator<T> {
  const pace = paces.get(context);
  const stopped = pace ? aborted(signal) : undefined;
  // The first initialCount items go out in the payload that holds the list, not incrementally.
  let initial = initialCountOf(info);
  const slicing: Slicing<T> = {
    full: (started) => performance.now() - started >= SLICE_MS,
    ready: () => {
      const caughtUp = pace?.caughtUp();
      return caughtUp && Promise.race([caughtUp, stopped]);
    },
    handing: () => {
      if (initial > 0) initial -= 1;
      else pace?.handOut(1);
    },
  };
  // A copy, each entry (and through it its evaluation, the built asset) forgotten once handed
  // out: the stream would otherwise keep every item's evaluation until its last item is sent
  // (130 MB more live heap and as much GC work at 10,000 items).
  return handOutInSlices([...entries], signal, context.service.turns, slicing, "throw");
}

/** `@stream`'s initialCount on this field (checked a whole number from 0 before execution). */
function initialCountOf(info: GraphQLResolveInfo): number {
  const directive = info.schema.getDirective("stream");
  if (!directive) return 0;
  const count = getDirectiveValues(directive, info.fieldNodes[0], info.variableValues)?.initialCount;
  return typeof count === "number" ? count : 0;
}

/** Resolves when the request is cancelled (the stream then stops at its next check). */
function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener("abort", () => resolve(), { once: true });
  });
}

/**
 * The `@defer` fragments inside a selection (its fragments followed): a deferred fragment of a
 * fleet's item is one more payload per item, counted as one more item by the fleet's admission.
 */
function deferredFragments(
  selections: SelectionSetNode | undefined,
  info: Pick<GraphQLResolveInfo, "fragments">,
  seen: Set<string> = new Set(),
): number {
  if (!selections) return 0;
  let count = 0;
  for (const selection of selections.selections) {
    if (selection.kind === Kind.FIELD) {
      count += deferredFragments(selection.selectionSet, info, seen);
      continue;
    }
    if (selection.directives?.some((d) => d.name.value === "defer")) count += 1;
    if (selection.kind === Kind.INLINE_FRAGMENT) {
      count += deferredFragments(selection.selectionSet, info, seen);
      continue;
    }
    // A named fragment is counted where it is spread; its own content once per spread, and a
    // document's fragments cannot cycle (validation), `seen` only guards the recursion.
    const fragment = info.fragments[selection.name.value];
    if (!fragment || seen.has(fragment.name.value)) continue;
    seen.add(fragment.name.value);
    count += deferredFragments(fragment.selectionSet, info, seen);
    seen.delete(fragment.name.value);
  }
  return count;
}

/** The `@defer` fragments inside a fleet's `items` selections (through the fleet's fragments). */
export function deferredPerItem(info: GraphQLResolveInfo): number {
  const itemsOf = (selections: SelectionSetNode | undefined, seen: Set<string>): number => {
    let count = 0;
    for (const selection of selections?.selections ?? []) {
      if (selection.kind === Kind.FIELD) {
        if (selection.name.value === "items") count += deferredFragments(selection.selectionSet, info);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        count += itemsOf(selection.selectionSet, seen);
      } else {
        const fragment = info.fragments[selection.name.value];
        if (!fragment || seen.has(fragment.name.value)) continue;
        count += itemsOf(fragment.selectionSet, new Set([...seen, fragment.name.value]));
      }
    }
    return count;
  };
  return info.fieldNodes.reduce((sum, node: FieldNode) => sum + itemsOf(node.selectionSet, new Set()), 0);
}

/** Every field of the operation's document carrying `@stream`, through its fragments. */
function streamedFields(document: DocumentNode): FieldNode[] {
  const found: FieldNode[] = [];
  visit(document, {
    Field(node) {
      if (node.directives?.some((d) => d.name.value === "stream")) found.push(node);
    },
  });
  return found;
}

/** Why a `@stream`'s arguments are refused (its `initialCount` not a whole number from 0), or null. */
function streamArgumentsRefusal(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Record<string, unknown> | undefined,
): GraphQLError | null {
  const directive = schema.getDirective("stream");
  if (!directive) return null;
  for (const node of streamedFields(document)) {
    let values: Record<string, unknown> | undefined;
    try {
      values = getDirectiveValues(directive, node, variables ?? {});
    } catch (error) {
      return refusal((error as Error).message);
    }
    const count = values?.initialCount;
    if (typeof count !== "number" || !Number.isInteger(count) || count < 0) {
      return refusal(
        `@stream on ${node.name.value}: initialCount must be a whole number from 0 on (got ${JSON.stringify(count ?? null)})`,
      );
    }
  }
  return null;
}

function refusal(message: string): GraphQLError {
  const error = badUserInput(message, ["initialCount"]);
  return new GraphQLError(error.message, {
    extensions: { ...error.extensions, http: { status: 422 } },
  });
}

/**
 * `@stream`'s arguments checked before execution: graphql-tools' executor asserts them and a
 * negative or null `initialCount` came out as an internal error.
 */
export function streamArgumentsPlugin(): Plugin {
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const refused = streamArgumentsRefusal(
        args.schema,
        args.document,
        args.variableValues as Record<string, unknown> | undefined,
      );
      if (refused) {
        setResultAndStopExecution({ errors: [refused] });
        return undefined;
      }
      if (streamedFields(args.document).length === 0 || typeof args.contextValue !== "object")
        return undefined;
      const context = args.contextValue as object;
      const pace = new StreamPace();
      paces.set(context, pace);
      return {
        onExecuteDone({ result }) {
          if (!isAsyncIterable(result)) {
            pace.end();
            return undefined;
          }
          return {
            onNext: ({ result: payload }) => pace.delivered(streamedItemsOf(payload)),
            onEnd: () => pace.end(),
          };
        },
      };
    },
  };
}
