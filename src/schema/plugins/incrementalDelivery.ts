import { type DirectiveNode, type DocumentNode, Kind, visit } from "graphql";
import type { Plugin } from "graphql-yoga";

/*
 * `@defer` and `@stream` asked by a client that cannot read an incremental answer: graphql-request
 * and Apollo Client send `Accept: application/json` (or `application/graphql-response+json`), and
 * yoga, holding an incremental result no accepted media type can carry, answered 406 with an empty
 * body. The incremental-delivery RFC lets a server deliver deferred and streamed data in the
 * initial payload: such a request runs without the two directives and gets one complete JSON
 * answer (200), the same data a streaming client assembles.
 */

const INCREMENTAL_TYPES = ["multipart/mixed", "text/event-stream"] as const;

/** Whether an Accept header admits one of the incremental media types (no header: any type). */
export function acceptsIncremental(accept: string | null): boolean {
  if (accept === null || accept.trim() === "") return true;
  return accept.split(",").some((range) => {
    const [mediaRange, ...parameters] = range.split(";").map((part) => part.trim().toLowerCase());
    // `q=0` refuses the type (RFC 9110 §12.4.2).
    if (parameters.some((parameter) => /^q=0(\.0{0,3})?$/.test(parameter))) return false;
    const [type, subtype] = mediaRange.split("/");
    return INCREMENTAL_TYPES.some((incremental) => {
      const [wantedType, wantedSubtype] = incremental.split("/");
      return (
        (type === "*" && subtype === "*") ||
        (type === wantedType && (subtype === "*" || subtype === wantedSubtype))
      );
    });
  });
}

const INCREMENTAL_DIRECTIVES = new Set(["defer", "stream"]);

const isIncrementalDirective = (directive: DirectiveNode) => INCREMENTAL_DIRECTIVES.has(directive.name.value);

function hasIncrementalDirective(document: DocumentNode): boolean {
  let found = false;
  visit(document, {
    Directive(node) {
      if (isIncrementalDirective(node)) found = true;
    },
  });
  return found;
}

/** The document without its `@defer` and `@stream`: the deferred and streamed data come at once. */
function withoutIncrementalDirectives(document: DocumentNode): DocumentNode {
  return visit(document, {
    [Kind.DIRECTIVE]: (node) => (isIncrementalDirective(node) ? null : undefined),
  });
}

/** Documents made complete, per parsed document (yoga keeps one parsed document per text). */
const completeDocuments = new WeakMap<DocumentNode, DocumentNode>();

function completeDocument(document: DocumentNode): DocumentNode {
  let complete = completeDocuments.get(document);
  if (!complete) {
    complete = hasIncrementalDirective(document) ? withoutIncrementalDirectives(document) : document;
    completeDocuments.set(document, complete);
  }
  return complete;
}

/** Runs `@defer`/`@stream` documents whole for a client whose Accept admits no incremental answer. */
export function incrementalDeliveryPlugin(): Plugin<{ request?: Request }> {
  return {
    onExecute({ args, executeFn, setExecuteFn }) {
      const request = args.contextValue.request;
      if (!request || acceptsIncremental(request.headers.get("accept"))) return;
      if (completeDocument(args.document) === args.document) return;
      setExecuteFn((executionArgs) =>
        executeFn({ ...executionArgs, document: completeDocument(executionArgs.document) }),
      );
    },
  };
}
