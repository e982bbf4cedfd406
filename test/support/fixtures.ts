/**
 * Reference numbers the tests of several layers (engine, GraphQL, REST) share, named once here.
 * They come from the reference data, not from `src`: the tests check that the service reads them.
 */

/**
 * The lifetime of the default archetypes, in hours: 4 years of 8760 h (`hours_life_time` of the
 * server, terminal and IoT archetypes of both editions' data). With no duration asked, use impacts
 * are over it and embedded impacts are allocated over it (docs/methodology.md).
 */
export const ARCHETYPE_LIFETIME_HOURS = 35040;
