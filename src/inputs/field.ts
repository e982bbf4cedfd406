/*
 * The vocabulary of the input catalogue (inputFields.ts): what one field of a request is, once, with
 * every fact its readers need. Everything else is derived from it: the GraphQL input types
 * (src/schema/inputs.ts), the service's checks and the engine's input (src/service/inputs.ts), the
 * v1 bodies under each edition's typing rules and their mapping to GraphQL (src/rest/validation/v1Body.ts), the
 * 422 locations, and the engine's input types (types.ts). This module imports nothing of src/.
 */

/**
 * The bound a number must respect besides its type (docs/methodology.md §15): what the service
 * refuses, named once. Every float bound but `percent` also requires a `REASONABLE` magnitude.
 *
 * - `count`: a whole number ≥ 0 (units, cores, capacities, TDP);
 * - `integer`: any whole number (GraphQL's Int already says so: nothing more is checked);
 * - `quantity`: ≥ 0, refused with the JSON-Schema constraint `minimum: 0` (powers, durations, ratios);
 * - `nonNegative`: ≥ 0, refused without a constraint (a measured power of the profile route);
 * - `number`: any sign (weights, die sizes, other-consumption ratio: answered as the reference does);
 * - `nonZero`: any but 0 (densities divide);
 * - `percent`: within 0–100 (workloads and loads).
 */
type NumberBound = "count" | "integer" | "quantity" | "nonNegative" | "number" | "nonZero" | "percent";

/**
 * A sentence of a description that depends on the editions (which ones have GPUs, how an edition
 * reads a die size…): written by the schema layer from the editions' descriptions
 * (`EDITION_NOTES`, src/schema/inputs.ts), as this module knows no edition.
 */
export type EditionNote = "cloudRegions" | "gpus" | "dieSize" | "serverGpu" | "profileFamily" | "profileTdp";

/** A description: a text, or a text with an edition-dependent sentence inserted at `{note}`. */
export type Description = string | { readonly text: string; readonly note: EditionNote };

/** How a field appears in a boaviztapi v1 body (snake_case). */
interface V1Spelling {
  /** Its v1 name; default: the GraphQL name in snake_case. */
  readonly name?: string;
  /**
   * Declared without `Optional` but with a default in the reference: absent is fine, an explicit
   * null is refused under pydantic 2 (docs/methodology.md §19.0.3). Default: `Optional`.
   */
  readonly defaulted?: true;
  /**
   * Validated in a second step, once the rest of the body is valid, its errors located under the
   * field (the reference declares these bodies' `usage` as a plain dict read later).
   */
  readonly deferred?: true;
  /** A text that also accepts a whole number, read as its decimal text (2.4.1 answers `"year": 2020`). */
  readonly textOrInteger?: true;
}

interface FieldBase {
  readonly description: Description;
  /** GraphQL non-null; in a v1 body a required key (absent: refused as missing). */
  readonly required?: true;
  /** The v1 spelling, or `false` for a field v1 bodies do not have (ignored there like any unknown key). */
  readonly v1?: V1Spelling | false;
  /**
   * `false` for a field the engine never reads: descriptive ones (a server model's name) and the
   * use-time fields, which the service turns into the evaluation's duration (`hoursPer`).
   */
  readonly engine?: false;
  /**
   * `false` for a field only v1 bodies have: the reference declares it (and so validates its
   * type) but never reads it, so a v1 body keeps it valid as the reference does, the OpenAPI
   * document describes it, and it goes no further (no GraphQL field; never the engine's).
   */
  readonly graphql?: false;
}

export interface NumberField extends FieldBase {
  readonly type: "int" | "float";
  readonly bound?: NumberBound;
  /** A use-time field: hours per unit of it (hours 1, days 24, years 8760, docs/methodology.md §6.1). */
  readonly hoursPer?: number;
  /**
   * The same quantity given another way, as a list of `of` (a constant workload or time shares at
   * loads, docs/methodology.md §5.1): a second GraphQL field, one v1 field taking either, one
   * engine value.
   */
  readonly alternative?: {
    readonly name: string;
    readonly of: InputObject;
    readonly description: Description;
  };
}

interface TextField extends FieldBase {
  readonly type: "text";
}

interface ObjectField extends FieldBase {
  readonly type: "object" | "list";
  readonly of: InputObject;
}

/** Electricity factors per criterion (`elec_factors`): one optional float per electricity criterion. */
interface FactorsField extends FieldBase {
  readonly type: "factors";
}

export type InputField = NumberField | TextField | ObjectField | FactorsField;

/** An input object: its GraphQL type name, its description and its fields, in their order. */
export interface InputObject {
  readonly name: string;
  readonly description: Description;
  readonly fields: Readonly<Record<string, InputField>>;
}

/** An input object, its field types kept literal (for the derived TypeScript types). */
export function inputObject<const F extends Readonly<Record<string, InputField>>>(
  name: string,
  description: Description,
  fields: F,
): { readonly name: string; readonly description: Description; readonly fields: F } {
  return { name, description, fields };
}

/** An object's fields GraphQL has (all but the v1-only ones), in order. */
export function graphqlFieldsOf(object: InputObject): [string, InputField][] {
  return Object.entries(object.fields).filter(([, field]) => field.graphql !== false);
}

/** The v1 (snake_case) spelling of a GraphQL field name. */
export function snakeCase(name: string): string {
  let out = "";
  for (const char of name) out += char >= "A" && char <= "Z" ? `_${char.toLowerCase()}` : char;
  return out;
}

/** The spelling of a field that states none: every default. Shared, as `v1Of` is read per key of every body. */
const DEFAULT_SPELLING: V1Spelling = Object.freeze({});

/** A field's v1 spelling (`{}`: the defaults), for a field v1 bodies have. */
export function v1Of(field: InputField): V1Spelling {
  return field.v1 || DEFAULT_SPELLING;
}

/** A field's v1 name, or null when v1 bodies do not have it. */
export function v1NameOf(name: string, field: InputField): string | null {
  if (field.v1 === false) return null;
  return field.v1?.name ?? snakeCase(name);
}

/**
 * The v1 names of the GraphQL fields of some objects (an alternative's list under its field's v1
 * name: `timeWorkloadShares` → `time_workload`), for locating errors in a v1 body.
 */
export function v1NamesOf(objects: readonly InputObject[]): ReadonlyMap<string, string> {
  const names = new Map<string, string>();
  for (const object of objects) {
    for (const [name, field] of Object.entries(object.fields)) {
      const v1Name = v1NameOf(name, field);
      if (v1Name === null) continue;
      names.set(name, v1Name);
      if ((field.type === "int" || field.type === "float") && field.alternative) {
        names.set(field.alternative.name, v1Name);
      }
    }
  }
  return names;
}
