import { isTypedKind, PERIPHERAL_KINDS, TERMINAL_KINDS } from "../../service/engineVocabulary.js";
import {
  IotDeviceArchetypeConfigDocument,
  IotDeviceArchetypesDocument,
  IotDeviceImpactsDocument,
  PeripheralArchetypesDocument,
  PeripheralImpactsDocument,
  TerminalArchetypeConfigDocument,
  TerminalArchetypesDocument,
  TerminalImpactsDocument,
  UserDeviceKindsDocument,
} from "../generated/graphql.js";
import { documented, type Handler, ok, type Route, required } from "../restRoute.js";
import { ARCHETYPE_PARAMETER, inputRoute } from "../routeBuilders.js";
import { iotDeviceVariables, peripheralVariables, terminalVariables } from "./deviceBody.js";

/*
 * v1 routes of terminals, peripherals (docs/methodology.md §9.1, §16) and IoT devices (§9.3). Only the
 * kinds of the route tables exist: `/v1/terminal/smartwatch` is not a route.
 */

/** `archetype_config`: any user_terminal.csv row, whatever the route kind (§16). */
const terminalConfig: Handler = documented(
  async (request, run) => {
    const archetype = required(request.params, "archetype");
    return ok((await run(TerminalArchetypeConfigDocument, { archetype })).terminalArchetypeConfig);
  },
  {
    summary: "The configuration of a terminal or peripheral archetype",
    query: [ARCHETYPE_PARAMETER],
    answer: "ArchetypeConfig",
  },
);

function allObject(family: string, kinds: readonly string[]): Record<string, string> {
  return Object.fromEntries(kinds.map((kind) => [kind, `v1/${family}/${kind}`]));
}

/** §16 `/all`: the edition's kinds of a family, in its listing order. */
function allRoute(family: "terminal" | "peripheral"): Handler {
  return documented(
    async (_request, run) => {
      const kinds = await run(UserDeviceKindsDocument, {});
      return ok(allObject(family, family === "terminal" ? kinds.terminalKinds : kinds.peripheralKinds));
    },
    { summary: `The ${family} kinds of the edition and their routes`, answer: "Links" },
  );
}

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
      inputRoute(TerminalImpactsDocument, terminalVariables(isTypedKind(kind)), (d) => d.device, { kind }),
      documented(
        async (_request, run) => ok((await run(TerminalArchetypesDocument, { kind })).terminalArchetypes),
        { summary: `Archetype ids of the ${kind} terminal`, answer: "Names" },
      ),
    ),
  );
}

function peripheralRoutes(): Route[] {
  return PERIPHERAL_KINDS.flatMap((kind) =>
    kindRoutes(
      "peripheral",
      kind,
      inputRoute(PeripheralImpactsDocument, peripheralVariables, (d) => d.device, { kind }),
      documented(
        async (_request, run) => ok((await run(PeripheralArchetypesDocument, { kind })).peripheralArchetypes),
        { summary: `Archetype ids of the ${kind} peripheral`, answer: "Names" },
      ),
    ),
  );
}

const iotImpacts = inputRoute(IotDeviceImpactsDocument, iotDeviceVariables, (data) => data.device);

function iotRoutes(): Route[] {
  return [
    { path: "/v1/iot/iot_device", methods: { GET: iotImpacts, POST: iotImpacts } },
    {
      path: "/v1/iot/iot_device/archetypes",
      methods: {
        GET: documented(
          async (_request, run) => ok((await run(IotDeviceArchetypesDocument, {})).iotDeviceArchetypes),
          { summary: "Archetype ids of the IoT device", answer: "Names" },
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
          {
            summary: "The configuration of an IoT device archetype (its functional blocks)",
            query: [ARCHETYPE_PARAMETER],
            answer: "ArchetypeConfig",
          },
        ),
      },
    },
  ];
}

export const deviceRoutes: readonly Route[] = [
  { path: "/v1/terminal/all", methods: { GET: allRoute("terminal") } },
  { path: "/v1/peripheral/all", methods: { GET: allRoute("peripheral") } },
  ...terminalRoutes(),
  ...peripheralRoutes(),
  ...iotRoutes(),
];
