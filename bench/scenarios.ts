/**
 * The scenarios of `npm run bench` (bench/run.ts) and of the profiling helper (bench/profile.ts):
 * fixed-seed varied inputs (mulberry32), so runs are comparable and caches cannot hide the
 * computation of the varied scenarios.
 */

import { readFileSync } from "node:fs";
import type autocannon from "autocannon";
import { seeded } from "../scripts/seededRandom.js";
import { COMPLETE_CONFIGURATION_V1 } from "../test/support/servers.js";

const root = new URL("..", import.meta.url);

const random = seeded(20261122);
const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)];

const CPU_NAMES = [
  "Intel Xeon Gold 6134",
  "Intel Xeon Platinum 8280",
  "AMD EPYC 7763",
  "Intel Xeon Silver 4214",
  "AMD EPYC 7502",
  "Intel Xeon E5-2686 V4",
];
export const LOCATIONS = ["EEE", "FRA", "DEU", "USA", "CHN", "IRL", "SWE", "GBR"];

const completeServer = {
  model: { type: "rack" },
  configuration: COMPLETE_CONFIGURATION_V1,
  usage: { usage_location: "FRA", time_workload: 50 },
};

function variedServer() {
  return {
    configuration: {
      cpu: {
        units: 1 + Math.floor(random() * 4),
        name: pick(CPU_NAMES),
        core_units: 8 + Math.floor(random() * 56),
      },
      ram: [{ units: 2 + Math.floor(random() * 22), capacity: pick([16, 32, 64, 128]) }],
      disk: [{ units: 1 + Math.floor(random() * 4), type: "ssd", capacity: pick([480, 960, 1920, 3840]) }],
      power_supply: { units: 2, unit_weight: 1 + random() * 4 },
    },
    usage: { usage_location: pick(LOCATIONS), time_workload: Math.round(random() * 100) },
  };
}

/** The AWS instance types of an edition's data set. */
function awsInstanceTypes(edition: string): string[] {
  return readFileSync(new URL(`data/${edition}/archetypes/cloud/aws.csv`, root), "utf8")
    .split("\n")
    .slice(1)
    .map((line) => line.split(",")[0])
    .filter((id) => id.length > 0);
}

const instanceTypes = awsInstanceTypes("1.2.4");
const instanceTypes241 = awsInstanceTypes("2.4.1");

function variedCloud(types: readonly string[] = instanceTypes) {
  return {
    provider: "aws",
    instance_type: pick(types),
    usage: { usage_location: pick(LOCATIONS), time_workload: Math.round(random() * 100) },
  };
}

export interface Scenario {
  readonly name: string;
  readonly target: "service" | "ceiling";
  readonly method: "GET" | "POST";
  readonly path: string;
  readonly body?: () => unknown;
  readonly connections?: number;
  readonly amount?: number;
}

const SERVER_GQL = `query ($input: ServerInput) { server(input: $input) { impacts { criterion embedded { ... on Impact { value min max } } use { ... on Impact { value min max } } } } }`;
export const SERVERS_GQL = `query ($inputs: [ServerItemInput!]!) { servers(inputs: $inputs) { total(criteria: [gwp]) { embedded { value } use { value } } items { impacts(criteria: [gwp]) { embedded { ... on Impact { value } } use { ... on Impact { value } } } } } }`;
const CLOUD_GQL = `query ($inputs: [CloudInstanceItemInput!]!) { cloudInstances(inputs: $inputs) { total { criterion embedded { value } use { value } } items { impacts { embedded { ... on Impact { value } } use { ... on Impact { value } } } } } }`;

const fleetRandom = seeded(7);
export const serverFleet = Array.from({ length: 1000 }, () => ({
  configuration: {
    cpu: { units: 2, name: CPU_NAMES[Math.floor(fleetRandom() * CPU_NAMES.length)] },
    ram: [{ units: 1 + Math.floor(fleetRandom() * 16), capacity: 32 }],
  },
  usage: { usageLocation: LOCATIONS[Math.floor(fleetRandom() * LOCATIONS.length)] },
}));
const cloudFleet = Array.from({ length: 1000 }, () => ({
  provider: "aws",
  instanceType: instanceTypes[Math.floor(fleetRandom() * instanceTypes.length)],
  usage: { usageLocation: LOCATIONS[Math.floor(fleetRandom() * LOCATIONS.length)] },
}));

export const SCENARIOS: readonly Scenario[] = [
  { name: "ceiling: constant JSON (bare node:http)", target: "ceiling", method: "GET", path: "/" },
  {
    name: "REST GET server archetype",
    target: "service",
    method: "GET",
    path: "/v1/server/?archetype=dellR740",
  },
  {
    name: "REST POST server complete, verbose",
    target: "service",
    method: "POST",
    path: "/v1/server/?verbose=true",
    body: () => completeServer,
  },
  {
    name: "REST POST cloud with usage, verbose",
    target: "service",
    method: "POST",
    path: "/v1/cloud/instance?verbose=true",
    body: () => ({
      provider: "aws",
      instance_type: "m5.xlarge",
      usage: { usage_location: "FRA", time_workload: 70 },
    }),
  },
  {
    name: "REST POST server verbose (varied)",
    target: "service",
    method: "POST",
    path: "/v1/server/?verbose=true",
    body: variedServer,
  },
  {
    name: "REST POST cloud verbose (varied)",
    target: "service",
    method: "POST",
    path: "/v1/cloud/instance?verbose=true",
    body: () => variedCloud(),
  },
  {
    name: "2.4.1: REST GET server archetype",
    target: "service",
    method: "GET",
    path: "/v1/server/?archetype=dellR740&edition=2.4.1",
  },
  {
    name: "2.4.1: REST POST server verbose (varied)",
    target: "service",
    method: "POST",
    path: "/v1/server/?verbose=true&edition=2.4.1",
    body: variedServer,
  },
  {
    name: "2.4.1: REST POST cloud verbose (varied)",
    target: "service",
    method: "POST",
    path: "/v1/cloud/instance?verbose=true&edition=2.4.1",
    body: () => variedCloud(instanceTypes241),
  },
  {
    name: "GraphQL single server",
    target: "service",
    method: "POST",
    path: "/graphql",
    body: () => ({ query: SERVER_GQL, variables: { input: { usage: { usageLocation: pick(LOCATIONS) } } } }),
  },
  {
    name: "GraphQL batch 1,000 servers (gwp)",
    target: "service",
    method: "POST",
    path: "/graphql",
    body: () => ({ query: SERVERS_GQL, variables: { inputs: serverFleet } }),
    connections: 1,
    amount: 20,
  },
  {
    name: "GraphQL batch 1,000 cloud instances",
    target: "service",
    method: "POST",
    path: "/graphql",
    body: () => ({ query: CLOUD_GQL, variables: { inputs: cloudFleet } }),
    connections: 1,
    amount: 20,
  },
];

/**
 * The service scenario a command line names (`process.argv[2]`, part of its name, any case);
 * without one, the usage line of `script` and exit code 2.
 */
export function namedScenario(script: string): Scenario {
  const wanted = (process.argv[2] ?? "").toLowerCase();
  const scenario = SCENARIOS.find((s) => s.target === "service" && s.name.toLowerCase().includes(wanted));
  if (wanted && scenario) return scenario;
  console.error(`usage: tsx ${script} <part of one of: ${SCENARIOS.map((s) => s.name).join(" | ")}>`);
  process.exit(2);
}

/** A scenario's request bodies, serialised ("" for a GET): a varied body made anew for each. */
export function scenarioBodies(scenario: Scenario, count: number): string[] {
  return Array.from({ length: count }, () => (scenario.body ? JSON.stringify(scenario.body()) : ""));
}

/** The requests autocannon sends for a scenario (a varied body made anew for each request). */
export function scenarioRequests(scenario: Scenario): autocannon.Request[] {
  return [
    {
      method: scenario.method,
      path: scenario.path,
      headers: { "content-type": "application/json" },
      setupRequest: (request) =>
        scenario.body ? { ...request, body: JSON.stringify(scenario.body()) } : request,
    },
  ];
}
