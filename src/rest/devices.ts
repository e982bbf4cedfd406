import { isTypedKind, PERIPHERAL_KINDS, TERMINAL_KINDS } from "../engine/index.js";
import {
  ARCHETYPE_PARAMETER,
  documented,
  type Handler,
  inputRoute,
  ok,
  type Route,
  required,
} from "./common.js";
import { iotDeviceVariables, peripheralVariables, terminalVariables } from "./deviceBody.js";
import {
  IotDeviceArchetypeConfigDocument,
  IotDeviceArchetypesDocument,
  IotDeviceImpactsDocument,
  PeripheralArchetypesDocument,
  PeripheralImpactsDocument,
  TerminalArchetypeConfigDocument,
  TerminalArchetypesDocument,
  TerminalImpactsDocument,
} from "./generated/graphql.js";

/*
 * v1 routes of terminals, peripherals (METHOD.md §9.1, §16) and IoT devices (§9.3). Only the
 * kinds of the route tables exist: `/v1/terminal/smartwatch` is not a route.
 */

/** `archetype_config`: any user_terminal.csv row, whatever the route kind (§16). */
const terminalConfig: Handler = documented(
  async (request, run) => {
    const archetype = required(request.params, "archetype");
    return ok((await run(TerminalArchetypeConfigDocument, { archetype })).terminalArchetypeConfig);
  },
  { summary: "The configuration of a terminal or peripheral archetype", query: [ARCHETYPE_PARAMETER] },
);

const DEVICE_SUMMARY = "Impacts of a device (GET: an archetype; POST: a usage completing it)";

function allObject(family: string, kinds: readonly string[]): Record<string, string> {
  return Object.fromEntries(kinds.map((kind) => [kind, `v1/${family}/${kind}`]));
}

/** §16 `/all` order: laptop, desktop, smartphone, television, tablet, box. */
const TERMINAL_ALL = allObject("terminal", [
  "laptop",
  "desktop",
  "smartphone",
  "television",
  "tablet",
  "box",
]);
const PERIPHERAL_ALL = allObject("peripheral", PERIPHERAL_KINDS);

/** The routes of one device kind: impacts (GET/POST), archetype ids and archetype configs. */
function kindRoutes(
  family: "terminal" | "peripheral",
  kind: string,
  impacts: Handler,
  archetypes: Handler,
): Route[] {
  const base = `/v1/${family}/${kind}`;
  return [
    { path: base, methods: { GET: impacts, POST: impacts } },
    { path: `${base}/archetypes`, methods: { GET: archetypes } },
    { path: `${base}/archetype_config`, methods: { GET: terminalConfig } },
  ];
}

function terminalRoutes(): Route[] {
  return TERMINAL_KINDS.flatMap((kind) =>
    kindRoutes(
      "terminal",
      kind,
      inputRoute(
        TerminalImpactsDocument,
        terminalVariables(isTypedKind(kind)),
        (d) => d.device,
        DEVICE_SUMMARY,
        { kind },
      ),
      documented(
        async (_request, run) => ok((await run(TerminalArchetypesDocument, { kind })).terminalArchetypes),
        { summary: `Archetype ids of ${kind}` },
      ),
    ),
  );
}

function peripheralRoutes(): Route[] {
  return PERIPHERAL_KINDS.flatMap((kind) =>
    kindRoutes(
      "peripheral",
      kind,
      inputRoute(PeripheralImpactsDocument, peripheralVariables, (d) => d.device, DEVICE_SUMMARY, { kind }),
      documented(
        async (_request, run) => ok((await run(PeripheralArchetypesDocument, { kind })).peripheralArchetypes),
        { summary: `Archetype ids of ${kind}` },
      ),
    ),
  );
}

const iotImpacts = inputRoute(
  IotDeviceImpactsDocument,
  iotDeviceVariables,
  (data) => data.device,
  "Impacts of an IoT device (GET: an archetype; POST: functional blocks and usage)",
);

function iotRoutes(): Route[] {
  return [
    { path: "/v1/iot/iot_device", methods: { GET: iotImpacts, POST: iotImpacts } },
    {
      path: "/v1/iot/iot_device/archetypes",
      methods: {
        GET: documented(
          async (_request, run) => ok((await run(IotDeviceArchetypesDocument, {})).iotDeviceArchetypes),
          { summary: "IoT device archetype ids" },
        ),
      },
    },
    {
      path: "/v1/iot/iot_device/archetype_config",
      methods: {
        GET: documented(
          async (request, run) => {
            const archetype = required(request.params, "archetype");
            return ok((await run(IotDeviceArchetypeConfigDocument, { archetype })).iotDeviceArchetypeConfig);
          },
          { summary: "The configuration of an IoT device archetype", query: [ARCHETYPE_PARAMETER] },
        ),
      },
    },
  ];
}

export const deviceRoutes: readonly Route[] = [
  {
    path: "/v1/terminal/all",
    methods: { GET: documented(async () => ok(TERMINAL_ALL), { summary: "The terminal routes" }) },
  },
  {
    path: "/v1/peripheral/all",
    methods: { GET: documented(async () => ok(PERIPHERAL_ALL), { summary: "The peripheral routes" }) },
  },
  ...terminalRoutes(),
  ...peripheralRoutes(),
  ...iotRoutes(),
];
