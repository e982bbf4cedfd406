import { setImmediate as nextMacrotask } from "node:timers/promises";
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
import type { Plugin } from "graphql-yoga";
import { SLICE_MS } from "../service/chunks.js";
import { badUserInput } from "./errors.js";
import { cancellationOf } from "./scheduling.js";

/*
 * `@stream` on a fleet's items, with a cost linear in the items. The executor (graphql-tools')
 * keeps one record per streamed item of a list and, on each payload it sends, races every record
 * still pending: a 10,000-item list of pending promises made that N² (3,000 races over 3,000
 * promises exhausted a 768 MB heap). Given an async iterable instead, it completes the items one
 * after the other, so the records pending at once are the few not sent yet. The items are handed
 * out in slices of about SLICE_MS with a turn of the event loop between slices, as
 * releaseInChunks does for an unstreamed fleet.
 */

/** Whether this field of the operation carries an active `@stream` (its `if` not false). */
export function isStreamed(info: GraphQLResolveInfo): boolean {
  const directive = info.schema.getDirective("stream");
  const node = info.fieldNodes[0];
  if (!directive || !node.directives?.some((d) => d.name.value === "stream")) return false;
  const values = getDirectiveValues(directive, node, info.variableValues);
  return values !== undefined && values.if !== false;
}

/** The fleet's entries as an async iterable, a slice per turn of the event loop (see above). */
export async function* streamInSlices<T>(entries: readonly T[], signal: AbortSignal): AsyncGenerator<T> {
  // Each entry is forgotten once handed out: the stream lives until its last item is sent.
  const waiting: (T | undefined)[] = [...entries];
  let next = 0;
  while (next < waiting.length) {
    await nextMacrotask();
    if (signal.aborted) throw cancellationOf(signal);
    const started = performance.now();
    while (next < waiting.length && performance.now() - started < SLICE_MS) {
      const entry = waiting[next] as T;
      waiting[next] = undefined;
      next += 1;
      yield entry;
    }
  }
}

/**
 * The `@defer` fragments inside a selection (its fragments followed): a deferred fragment of a
 * fleet's item is one more payload per item, counted as one more item by the fleet's admission.
 */
export function deferredFragments(
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
      if (refused) setResultAndStopExecution({ errors: [refused] });
    },
  };
}
