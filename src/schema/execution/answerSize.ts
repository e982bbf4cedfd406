import {
  type FieldNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLResolveInfo,
  getArgumentValues,
  getNamedType,
  isInterfaceType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  Kind,
  type SelectionSetNode,
} from "graphql";
import { DEFAULT_CRITERIA } from "../../service/criteria.js";

/*
 * The size of a fleet's answer, estimated from its selection before any item is evaluated: what
 * one item's selected fields take, times the items. An alias repeats a field, a fleet multiplies
 * it, so a small document can ask for an answer of gigabytes (10,000 items × 3,000 aliases of
 * `__typename`, or 2,000 items × 30 aliases of a verbose report): such an answer is refused
 * (MAX_ANSWER_BYTES) before it is built, instead of exhausting the heap while it is.
 *
 * The estimate is deliberately simple and on the large side: a field takes LEAF_BYTES, a JSON
 * field JSON_BYTES unless it states its own size (`extensions.answerBytes`, or
 * `extensions.answerBytesPerCriterion` for reports that grow with the criteria asked for), a list
 * has one element per requested criterion when it takes criteria, LIST_LENGTH elements otherwise.
 */

/** A scalar field: its name, value and punctuation. */
const LEAF_BYTES = 24;
/** A JSON field that does not state its size. */
const JSON_BYTES = 256;
/** Elements of a list whose length is not known before execution (components, attributes…). */
const LIST_LENGTH = 8;

interface FieldSizeExtensions {
  readonly answerBytes?: number;
  readonly answerBytesPerCriterion?: number;
}

function isListField(field: GraphQLField<unknown, unknown>): boolean {
  const type = isNonNullType(field.type) ? field.type.ofType : field.type;
  return isListType(type);
}

/** The criteria a field asks for (its `criteria` argument, or the default), else `inherited`. */
function criteriaOf(
  field: GraphQLField<unknown, unknown>,
  node: FieldNode,
  info: GraphQLResolveInfo,
  inherited: number,
): number {
  if (!field.args.some((arg) => arg.name === "criteria")) return inherited;
  try {
    const { criteria } = getArgumentValues(field, node, info.variableValues);
    return Array.isArray(criteria) ? new Set(criteria).size : DEFAULT_CRITERIA.length;
  } catch {
    return DEFAULT_CRITERIA.length; // invalid arguments are reported by the execution
  }
}

/**
 * Estimated bytes of one `type` value answering `selections`; `items`, at the top, is the
 * length of the fleet's `items` list.
 */
function selectionBytes(
  selections: SelectionSetNode,
  type: GraphQLNamedType,
  info: GraphQLResolveInfo,
  criteria: number,
  items?: number,
): number {
  let bytes = 0;
  for (const selection of selections.selections) {
    if (selection.kind === Kind.INLINE_FRAGMENT) {
      const condition = selection.typeCondition
        ? info.schema.getType(selection.typeCondition.name.value)
        : type;
      bytes += selectionBytes(selection.selectionSet, condition ?? type, info, criteria);
      continue;
    }
    if (selection.kind === Kind.FRAGMENT_SPREAD) {
      const fragment = info.fragments[selection.name.value];
      const condition = fragment && info.schema.getType(fragment.typeCondition.name.value);
      if (fragment) bytes += selectionBytes(fragment.selectionSet, condition ?? type, info, criteria);
      continue;
    }
    // A fragment on an interface (`... on Asset`) selects the interface's fields: counted as well.
    const field =
      isObjectType(type) || isInterfaceType(type) ? type.getFields()[selection.name.value] : undefined;
    if (!field) {
      bytes += LEAF_BYTES; // __typename
      continue;
    }
    const asked = criteriaOf(field, selection, info, criteria);
    const named = getNamedType(field.type);
    const size = field.extensions as FieldSizeExtensions;
    const one = isLeafType(named)
      ? (size.answerBytes ??
        (size.answerBytesPerCriterion !== undefined
          ? size.answerBytesPerCriterion * asked
          : named.name === "JSON"
            ? JSON_BYTES
            : LEAF_BYTES))
      : LEAF_BYTES +
        (selection.selectionSet ? selectionBytes(selection.selectionSet, named, info, asked) : 0);
    const elements = !isListField(field)
      ? 1
      : items !== undefined && field.name === "items"
        ? items
        : field.args.some((arg) => arg.name === "criteria")
          ? asked
          : LIST_LENGTH;
    bytes += one * elements;
  }
  return bytes;
}

/** Estimated bytes of the answer of a fleet field of `items` items (info: the fleet field's). */
export function fleetAnswerBytes(info: GraphQLResolveInfo, items: number): number {
  const type = getNamedType(info.returnType);
  return info.fieldNodes.reduce(
    (sum, node) =>
      sum +
      (node.selectionSet ? selectionBytes(node.selectionSet, type, info, DEFAULT_CRITERIA.length, items) : 0),
    0,
  );
}
