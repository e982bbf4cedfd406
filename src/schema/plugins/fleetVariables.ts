import {
  coerceInputValue,
  type DocumentNode,
  type GraphQLInputType,
  type GraphQLSchema,
  getOperationAST,
  isListType,
  isNonNullType,
  isScalarType,
  Kind,
  type OperationDefinitionNode,
  typeFromAST,
} from "graphql";
import type { Plugin } from "graphql-yoga";
import { OWN_TURNS, SLICE_MS, type TurnShare } from "../../service/eventLoopSlices.js";
import type { RequestContext } from "../../service/requestState.js";
import { isFleet } from "./inputLimits.js";

/*
 * A fleet's variables coerced in slices. The executor coerces every variable of an operation at
 * once, before anything else of it: a 10,000-server fleet's list took about 380 ms of the main
 * thread in one turn (copied, then coerced item by item: bench/README.md, "Single requests during
 * fleets"), which every other request waited behind. Here a large fleet list is coerced item by
 * item by graphql-js's own `coerceInputValue` (what the executor calls), in slices of the service's
 * turns (src/service/eventLoopSlices.ts), then handed to the executor already coerced, its variable
 * declared as the schema's `JSON` scalar, whose `parseValue` is the identity, for this execution
 * only (the document stays as validated and cached): the executor then coerces nothing of it, and
 * a field's argument taken from a variable is not coerced again. Any item that does not coerce
 * leaves the variables as they came: the executor coerces them and says why in its own words.
 */

/** A fleet list shorter than this is coerced by the executor, in one go (a few ms at most). */
const SLICED_ITEMS = 256;

/** The schema's scalar whose `parseValue` is the identity (src/schema/builder.ts). */
const IDENTITY_SCALAR = "JSON";

/** The items of `list` coerced to `item` in slices of the turns; null at the first that does not coerce. */
export async function coercedInSlices(
  list: readonly unknown[],
  item: GraphQLInputType,
  turns: TurnShare,
): Promise<unknown[] | null> {
  const coerced = new Array<unknown>(list.length);
  let failed = false;
  const onError = () => {
    failed = true;
  };
  for (let at = 0; at < list.length; ) {
    await turns.nextSlice();
    const started = performance.now();
    while (at < list.length && performance.now() - started < SLICE_MS) {
      coerced[at] = coerceInputValue(list[at], item, onError);
      if (failed) return null;
      at += 1;
    }
  }
  return coerced;
}

/** The fleet variables of an operation worth slicing: their names and item types. */
function slicedFleets(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  variables: Readonly<Record<string, unknown>>,
): { name: string; item: GraphQLInputType }[] {
  return (operation.variableDefinitions ?? []).flatMap((definition) => {
    const name = definition.variable.name.value;
    const type = typeFromAST(schema, definition.type);
    const value = variables[name];
    if (type === undefined || !isFleet(type as GraphQLInputType)) return [];
    if (!Array.isArray(value) || value.length < SLICED_ITEMS) return [];
    const list = isNonNullType(type) ? type.ofType : type;
    return isListType(list) ? [{ name, item: list.ofType as GraphQLInputType }] : [];
  });
}

/** The document with these variables declared as the identity scalar, for one execution. */
function withIdentityVariables(
  document: DocumentNode,
  operation: OperationDefinitionNode,
  names: ReadonlySet<string>,
): DocumentNode {
  const identity = { kind: Kind.NAMED_TYPE, name: { kind: Kind.NAME, value: IDENTITY_SCALAR } } as const;
  const declared: OperationDefinitionNode = {
    ...operation,
    variableDefinitions: operation.variableDefinitions?.map((definition) =>
      names.has(definition.variable.name.value) ? { ...definition, type: identity } : definition,
    ),
  };
  return {
    ...document,
    definitions: document.definitions.map((definition) => (definition === operation ? declared : definition)),
  };
}

/** The yoga plugin coercing large fleet variables in slices (after inputLimitsPlugin's refusals). */
export function fleetVariablesPlugin(): Plugin {
  return {
    async onExecute({ args, executeFn, setExecuteFn }) {
      const variables = args.variableValues as Record<string, unknown> | null | undefined;
      const operation = variables ? getOperationAST(args.document, args.operationName) : null;
      if (!variables || !operation || !isScalarType(args.schema.getType(IDENTITY_SCALAR))) return;
      const fleets = slicedFleets(args.schema, operation, variables);
      if (fleets.length === 0) return;
      const turns = (args.contextValue as Partial<RequestContext>).service?.turns ?? OWN_TURNS;
      const coerced: Record<string, unknown> = { ...variables };
      for (const { name, item } of fleets) {
        const list = await coercedInSlices(variables[name] as unknown[], item, turns);
        if (list === null) return;
        coerced[name] = list;
      }
      const document = withIdentityVariables(
        args.document,
        operation,
        new Set(fleets.map(({ name }) => name)),
      );
      setExecuteFn((execution) => executeFn({ ...execution, document, variableValues: coerced }));
    },
  };
}
