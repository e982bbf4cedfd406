import { setImmediate as nextMacrotask } from "node:timers/promises";
import { type GraphQLFieldResolver, type GraphQLInputType, type GraphQLSchema, getNamedType } from "graphql";
import type { RequestContext } from "../../service/requestState.js";
import { FLEET_ITEM_INPUTS } from "../batch.js";
import { cancelled } from "../errors.js";

/*
 * The root fields of one request take turns on the event loop. graphql-js starts every root field
 * (every alias) in the same turn, and a field's work up to its first await — name matching above
 * all: a CPU name is scored against every row of the CPU table — is synchronous: thirty aliases of
 * `cpuByName` with distinct long names held the loop for up to 1.25 s. Here the first root field
 * of a request runs at once and each further one one event-loop turn after the previous one, so
 * other requests are served between them and the loop is never held for more than one field.
 * Fleets are left out: they already release their items in chunks (scheduling.ts) and count their
 * items across aliases in their first turn.
 */

/** The turn of each request's last root field started (keyed by its context). */
const lastTurn = new WeakMap<object, Promise<void>>();

function takingTurns(
  resolve: GraphQLFieldResolver<unknown, RequestContext>,
): GraphQLFieldResolver<unknown, RequestContext> {
  return (source, args, context, info) => {
    const previous = lastTurn.get(context);
    if (previous === undefined) {
      lastTurn.set(context, Promise.resolve());
      return resolve(source, args, context, info);
    }
    const mine = previous.then(() => nextMacrotask());
    lastTurn.set(context, mine);
    return mine.then(() => {
      if (context.signal.aborted) {
        const reason = context.signal.reason;
        throw cancelled(reason instanceof Error ? reason.message : "the request was cancelled");
      }
      return resolve(source, args, context, info);
    });
  };
}

/** Whether a root field evaluates a fleet (it takes a list of fleet items). */
function isFleetField(args: readonly { readonly type: GraphQLInputType }[]): boolean {
  return args.some((arg) => FLEET_ITEM_INPUTS.has(getNamedType(arg.type).name));
}

/**
 * Makes the query root fields of `schema` (fleets excepted) take turns, as described above; the
 * schema is changed in place (its resolvers only) and returned.
 */
export function rootFieldsTakingTurns(schema: GraphQLSchema): GraphQLSchema {
  const query = schema.getQueryType();
  if (!query) return schema;
  for (const field of Object.values(query.getFields())) {
    if (isFleetField(field.args)) continue;
    const resolve = field.resolve as GraphQLFieldResolver<unknown, RequestContext> | undefined;
    if (resolve) field.resolve = takingTurns(resolve) as typeof field.resolve;
  }
  return schema;
}
