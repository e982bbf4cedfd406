import type { InputField, InputObject } from "./field.js";

/*
 * The TypeScript types derived from the catalogue: a GraphQL input value (what a resolver
 * receives, once validated) and the engine's input (what a model reads). Nothing here is written
 * twice: a field added to the catalogue appears in both.
 */

type Fields<O extends InputObject> = O["fields"];

type RequiredKeys<O extends InputObject> = {
  [K in keyof Fields<O>]: Fields<O>[K] extends { readonly required: true } ? K : never;
}[keyof Fields<O>];

type Scalar<F extends InputField> = F extends { readonly type: "text" } ? string : number;

/** Electricity factor overrides per criterion name. */
export type FactorOverrides = Readonly<Record<string, number | null | undefined>>;

/* ---------------------------------------------------------------------------------------------- */

type GraphQLFieldValue<F extends InputField> = F extends {
  readonly type: "object";
  readonly of: infer O extends InputObject;
}
  ? GraphQLValueOf<O>
  : F extends { readonly type: "list"; readonly of: infer O extends InputObject }
    ? readonly GraphQLValueOf<O>[]
    : F extends { readonly type: "factors" }
      ? FactorOverrides
      : Scalar<F>;

type Alternatives<O extends InputObject> = {
  [K in keyof Fields<O> as Fields<O>[K] extends {
    readonly alternative: { readonly name: infer N extends string };
  }
    ? N
    : never]?: Fields<O>[K] extends { readonly alternative: { readonly of: infer A extends InputObject } }
    ? readonly GraphQLValueOf<A>[] | null
    : never;
};

/** A GraphQL input value of an input object (camelCase), alternatives as their own fields. */
export type GraphQLValueOf<O extends InputObject> = {
  readonly [K in Exclude<keyof Fields<O>, RequiredKeys<O>>]?: GraphQLFieldValue<Fields<O>[K]> | null;
} & { readonly [K in RequiredKeys<O>]: GraphQLFieldValue<Fields<O>[K]> } & Alternatives<O>;

/* ---------------------------------------------------------------------------------------------- */

type EngineFieldValue<F extends InputField> = F extends {
  readonly type: "object";
  readonly of: infer O extends InputObject;
}
  ? EngineInputOf<O>
  : F extends { readonly type: "list"; readonly of: infer O extends InputObject }
    ? readonly EngineInputOf<O>[]
    : F extends { readonly type: "factors" }
      ? FactorOverrides
      : F extends { readonly alternative: { readonly of: infer A extends InputObject } }
        ? number | readonly EngineInputOf<A>[]
        : Scalar<F>;

type EngineKeys<O extends InputObject> = {
  [K in keyof Fields<O>]: Fields<O>[K] extends { readonly engine: false } ? never : K;
}[keyof Fields<O>];

/**
 * The engine's input of an input object: the fields the engine reads (no use-time or descriptive
 * field), an alternative merged into its field (a number or a list).
 */
export type EngineInputOf<O extends InputObject> = {
  readonly [K in Exclude<EngineKeys<O>, RequiredKeys<O>>]?: EngineFieldValue<Fields<O>[K]> | null;
} & { readonly [K in Extract<EngineKeys<O>, RequiredKeys<O>>]: EngineFieldValue<Fields<O>[K]> };
