/*
 * The example queries GraphiQL opens on: one tab per asset kind, the fleet example with its
 * variables, and the service version. They are executed by the tests, so they stay valid.
 */

import { ASSET_TABS } from "./graphiqlAssetTabs.js";
import { MORE_TABS } from "./graphiqlMoreTabs.js";
import type { GraphiQLExample } from "./graphiqlTab.js";

export const GRAPHIQL_EXAMPLES: readonly GraphiQLExample[] = [...ASSET_TABS, ...MORE_TABS];
