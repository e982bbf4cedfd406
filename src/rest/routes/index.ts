import type { Route } from "../route.js";
import { cloudRoutes } from "./cloud.js";
import { cloudScannerRoutes } from "./cloudScanner.js";
import { coefficientRoutes } from "./coefficients.js";
import { componentRoutes } from "./components.js";
import { deviceRoutes } from "./devices.js";
import { generativeAiRoutes } from "./generativeAi.js";
import { profileRoutes } from "./profile.js";
import { serverRoutes } from "./server.js";
import { utilsRoutes } from "./utils.js";

/** Every v1 route of the shim, by domain. */
export const ROUTES: readonly Route[] = [
  ...serverRoutes,
  ...componentRoutes(),
  ...utilsRoutes,
  ...cloudRoutes,
  ...coefficientRoutes,
  ...profileRoutes,
  ...deviceRoutes,
  ...generativeAiRoutes,
  ...cloudScannerRoutes,
];
