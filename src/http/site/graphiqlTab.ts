/*
 * What a GraphiQL example tab is, and the fragment every impact tab selects a phase with.
 */

export interface GraphiQLExample {
  /** What the tab shows (the operation name). */
  readonly query: string;
  /** JSON text of the tab's variables. */
  readonly variables?: string;
}

/**
 * The longest line of an example: GraphiQL's query editor shows about 54 characters at a
 * 1400 px wide window (the editor also wraps longer lines, see `pages.ts`).
 */
export const EXAMPLE_LINE_LIMIT = 52;

/**
 * A phase's impact: a value with its margin, or why there is none. Each tab names its own
 * fragment (`ServerPhase`…): tools that read the examples together (graphql-inspector, a
 * codegen run) need fragment names unique across documents.
 */
export const phase = (operation: string) => `
fragment ${operation}Phase on PhaseImpact {
  ... on Impact { value min max warnings }
  ... on NotImplemented { reason }
}
`;
