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
type FactorOverrides = Readonly<Record<string, number | null | undefined>>;

/* ---------------------------------------------------------------------------------------------- */

/** Whose value: a resolver's (GraphQL names, alternatives apart) or the engine's (alternatives merged). */
type Reader = "graphql" | "engine";

type ValueOf<O extends InputObject, R extends Reader> = R extends "engine"
  ? EngineInputOf<O>
  : GraphQLValueOf<O>;

type FieldValue<F extends InputField, R extends Reader> = F extends {
  readonly type: "object";
  readonly of: infer O extends InputObject;
}
  ? ValueOf<O, R>
  : F extends { readonly type: "list"; readonly of: infer O extends InputObject }
    ? readonly ValueOf<O, R>[]
    : F extends { readonly type: "factors" }
      ? FactorOverrides
      : R extends "engine"
        ? F extends { readonly alternative: { readonly of: infer A extends InputObject } }
          ? number | readonly EngineInputOf<A>[]
          : Scalar<F>
        : Scalar<F>;

/** The value of an object's `Keys`, those also required non-optional, the others optional or null. */
type Values<O extends InputObject, Keys extends keyof Fields<O>, R extends Reader> = {
  readonly [K in Exclude<Keys, RequiredKeys<O>>]?: FieldValue<Fields<O>[K], R> | null;
} & { readonly [K in Extract<Keys, RequiredKeys<O>>]: FieldValue<Fields<O>[K], R> };

type Alternatives<O extends InputObject> = {
  [K in keyof Fields<O> as Fields<O>[K] extends {
    readonly alternative: { readonly name: infer N extends string };
  }
    ? N
    : never]?: Fields<O>[K] extends { readonly alternative: { readonly of: infer A extends InputObject } }
    ? readonly GraphQLValueOf<A>[] | null
    : never;
};

type GraphQLKeys<O extends InputObject> = {
  [K in keyof Fields<O>]: Fields<O>[K] extends { readonly graphql: false } ? never : K;
}[keyof Fields<O>];

/** A GraphQL input value of an input object (camelCase), alternatives as their own fields; no v1-only field. */
export type GraphQLValueOf<O extends InputObject> = Values<O, GraphQLKeys<O>, "graphql"> & Alternatives<O>;

type EngineKeys<O extends InputObject> = {
  [K in keyof Fields<O>]: Fields<O>[K] extends { readonly engine: false } ? never : K;
}[keyof Fields<O>];

/**
 * The engine's input of an input object: the fields the engine reads (no use-time or descriptive
 * field), an alternative merged into its field (a number or a list).
 */
export type EngineInputOf<O extends InputObject> = Values<O, EngineKeys<O>, "engine">;
