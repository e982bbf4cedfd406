/**
 * Random v1 requests for the differential harness (scripts/differential.ts): the same requests go
 * to the service and to the rebuilt reference. Every route family, verbose or not, criteria,
 * durations, archetypes, usages (locations, workloads, powers, lifetimes, factor overrides), GPUs,
 * approximate names and bad inputs (wrong types, unknown names, broken JSON). Seeded (the bench's
 * mulberry32): a seed and a count give the same requests every time.
 */
import { seeded } from "../seededRandom.js";

/** The route families measured, each with its own share of requests. */
export const FAMILIES = [
  "server",
  "cloud",
  "component",
  "terminal",
  "peripheral",
  "iot",
  "consumption_profile",
  "utils",
] as const;
export type Family = (typeof FAMILIES)[number];

export interface DifferentialRequest {
  readonly id: string;
  readonly family: Family;
  readonly method: "GET" | "POST";
  /** Path and query, without the service's `edition` parameter. */
  readonly path: string;
  /** A JSON body, null for none; `bodyRaw` is sent as is (broken JSON). */
  readonly body: unknown;
  readonly bodyRaw?: string;
}

/** What the generator draws names from: the reference's own listings (scripts/differential.ts). */
export interface Catalog {
  readonly serverArchetypes: readonly string[];
  readonly cpuNames: readonly string[];
  readonly gpuNames: readonly string[];
  readonly cpuFamilies: readonly string[];
  readonly cpuModelRanges: readonly string[];
  readonly ramManufacturers: readonly string[];
  readonly ssdManufacturers: readonly string[];
  readonly countries: readonly string[];
  readonly providers: readonly string[];
  readonly instances: Readonly<Record<string, readonly string[]>>;
  readonly regions: Readonly<Record<string, readonly string[]>>;
  readonly terminals: Readonly<Record<string, readonly string[]>>;
  readonly peripherals: Readonly<Record<string, readonly string[]>>;
  readonly iotArchetypes: readonly string[];
  readonly criteria: readonly string[];
}

/** The v1 listing routes the catalog is read from. */
export const CATALOG_ROUTES = {
  serverArchetypes: "/v1/server/archetypes",
  cpuNames: "/v1/utils/cpu_name",
  gpuNames: "/v1/utils/gpu_name",
  cpuFamilies: "/v1/utils/cpu_family",
  cpuModelRanges: "/v1/utils/cpu_model_range",
  ramManufacturers: "/v1/utils/ram_manufacturer",
  ssdManufacturers: "/v1/utils/ssd_manufacturer",
  countries: "/v1/utils/country_code",
  providers: "/v1/cloud/instance/all_providers",
  iotArchetypes: "/v1/iot/iot_device/archetypes",
  criteria: "/v1/utils/impact_criteria",
} as const;

export const TERMINAL_KINDS = [
  "laptop",
  "desktop",
  "smartphone",
  "television",
  "tablet",
  "box",
  "vr_headset",
];
export const PERIPHERAL_KINDS = ["monitor", "usb_stick", "external_ssd", "external_hdd", "vr_controller"];
const COMPONENTS = ["cpu", "ram", "ssd", "hdd", "case", "motherboard", "power_supply", "gpu"] as const;
const FUNCTIONAL_BLOCKS = [
  "ACTUATORS",
  "CASING",
  "CONNECTIVITY",
  "MEMORY",
  "OTHERS",
  "PCB",
  "POWER_SUPPLY",
  "PROCESSING",
  "SECURITY",
  "SENSING",
  "USER_INTERFACE",
];

class Draw {
  constructor(readonly next: () => number) {}
  chance(p: number): boolean {
    return this.next() < p;
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  float(min: number, max: number, digits = 2): number {
    return Number((min + this.next() * (max - min)).toFixed(digits));
  }
  pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.next() * list.length)];
  }
  some<T>(list: readonly T[], max: number): T[] {
    const count = this.int(1, max);
    return Array.from({ length: count }, () => this.pick(list));
  }
}

/** Values that are wrong for most fields: text, null, negative, zero, lists, objects, huge. */
const BAD_VALUES: readonly unknown[] = ["abc", null, -1, 0, [], {}, 1e31, "12", true];

/** A name with a typo or other case: approximate names exercise the fuzzy matchers. */
function misspelled(d: Draw, name: string): string {
  if (name.length < 3) return name;
  const roll = d.int(0, 3);
  if (roll === 0) return name.toUpperCase();
  if (roll === 1) return name.slice(0, -1);
  if (roll === 2) return ` ${name} `;
  const at = d.int(1, name.length - 2);
  return name.slice(0, at) + name[at + 1] + name[at] + name.slice(at + 2);
}

function query(d: Draw, catalog: Catalog, extra: Record<string, string> = {}): string {
  const parts = Object.entries(extra).map(([k, v]) => `${k}=${encodeURIComponent(v)}`);
  parts.push(`verbose=${d.chance(0.5)}`);
  if (d.chance(0.7)) for (const c of new Set(d.some(catalog.criteria, 4))) parts.push(`criteria=${c}`);
  if (d.chance(0.05)) parts.push(`criteria=${d.pick(["zzz", "CTUh_c", "GWP"])}`);
  if (d.chance(0.3)) parts.push(`duration=${d.pick([1, 24, 8760, 17520.5, 26280, 100000, 0])}`);
  if (d.chance(0.02)) parts.push(`duration=${d.pick(["-5", "abc"])}`);
  return parts.join("&");
}

function workload(d: Draw): unknown {
  if (d.chance(0.6)) return d.pick([0, 10, 30, 50, 75, 100, d.float(0, 100)]);
  const first = d.int(0, 100);
  return [
    { time_percentage: first, load_percentage: d.int(0, 100) },
    { time_percentage: 100 - first, load_percentage: d.int(0, 100) },
  ];
}

function usage(
  d: Draw,
  catalog: Catalog,
  kind: "device" | "server" | "cloud" | "component",
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (d.chance(0.6))
    out.usage_location = d.chance(0.9) ? d.pick(catalog.countries) : d.pick(["EEE", "eee", "XYZ", ""]);
  if (d.chance(0.4) && kind !== "device") out.time_workload = workload(d);
  if (d.chance(0.3)) out.use_time_ratio = d.pick([0, 0.2, 0.5, 1, d.float(0, 1)]);
  if (d.chance(0.3)) out.hours_life_time = d.pick([8760, 26280, 35040, 43800, d.int(1, 100000)]);
  if (d.chance(kind === "device" ? 0.4 : 0.15)) out.avg_power = d.float(0.5, 800, 1);
  if (kind === "server" || kind === "cloud") {
    if (d.chance(0.2)) out.other_consumption_ratio = d.pick([0, 0.1, 0.33, 1]);
  }
  if (kind === "cloud" && d.chance(0.15)) out.instance_per_server = d.int(1, 8);
  if (d.chance(0.1)) out.elec_factors = { [d.pick(["gwp", "pe", "adp", "gwppf", "odp"])]: d.float(0, 1, 4) };
  if (d.chance(0.03)) out[d.pick(Object.keys(out).concat(["use_time_ratio"]))] = d.pick(BAD_VALUES);
  return out;
}

function cpu(d: Draw, catalog: Catalog): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (d.chance(0.5))
    out.name = d.chance(0.8) ? d.pick(catalog.cpuNames) : misspelled(d, d.pick(catalog.cpuNames));
  if (d.chance(0.3)) out.units = d.int(1, 4);
  if (d.chance(0.2)) out.core_units = d.int(1, 96);
  if (d.chance(0.15)) out.tdp = d.int(15, 400);
  if (d.chance(0.15)) out.family = d.pick(catalog.cpuFamilies);
  if (d.chance(0.1)) out.model_range = d.pick(catalog.cpuModelRanges);
  if (d.chance(0.1)) out.manufacturer = d.pick(["Intel", "AMD", "intel", "Annapurna Labs"]);
  if (d.chance(0.1)) out.die_size_per_core = d.float(5, 60, 1);
  if (d.chance(0.05)) out.die_size = d.float(50, 1500, 0);
  if (d.chance(0.05)) out.threads = d.int(1, 192);
  return out;
}

function ram(d: Draw, catalog: Catalog): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (d.chance(0.6)) out.units = d.int(1, 32);
  if (d.chance(0.6)) out.capacity = d.pick([4, 8, 16, 32, 64, 128, 256, 0, d.float(1, 512, 1)]);
  if (d.chance(0.2)) out.manufacturer = d.pick(catalog.ramManufacturers);
  if (d.chance(0.1)) out.process = d.pick([25, 30, 40, 22]);
  if (d.chance(0.05)) out.density = d.float(0.2, 3);
  return out;
}

function disk(d: Draw, catalog: Catalog, type: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (d.chance(0.6)) out.units = d.int(0, 12);
  if (d.chance(0.6)) out.capacity = d.pick([256, 480, 960, 1000, 2000, 4000, 8000, 16000]);
  if (type === "ssd" && d.chance(0.2)) out.manufacturer = d.pick(catalog.ssdManufacturers);
  if (type === "ssd" && d.chance(0.1)) out.layers = d.pick([32, 64, 96, 128, 176]);
  if (type === "ssd" && d.chance(0.05)) out.density = d.float(10, 120, 1);
  return out;
}

function gpu(d: Draw, catalog: Catalog): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (d.chance(0.5))
    out.name = d.chance(0.7)
      ? d.pick(catalog.gpuNames)
      : d.pick([
          "A100",
          "H100",
          "T4",
          "L4",
          "MI300X",
          "RTX 6000",
          misspelled(d, d.pick(catalog.gpuNames)),
          "Large GPU",
          "nothing like it",
        ]);
  if (d.chance(0.4)) out.units = d.int(1, 8);
  if (d.chance(0.2)) out.vram = d.pick([8, 16, 24, 40, 80, 141]);
  if (d.chance(0.1)) out.vram_dies = d.int(1, 12);
  if (d.chance(0.1)) out.manufacturer = d.pick(["NVIDIA", "AMD"]);
  if (d.chance(0.1)) out.weight = d.float(0.2, 3);
  if (d.chance(0.05)) out.gpu_surface = d.float(100, 3000, 0);
  if (d.chance(0.05)) out.heatsink_weight = d.float(0.1, 1.5);
  return out;
}

function serverRequest(d: Draw, catalog: Catalog): Omit<DifferentialRequest, "id" | "family"> {
  if (d.chance(0.4)) {
    const archetype = d.chance(0.95) ? d.pick(catalog.serverArchetypes) : d.pick(["nope", " dellR740 "]);
    return { method: "GET", path: `/v1/server/?${query(d, catalog, { archetype })}`, body: null };
  }
  const configuration: Record<string, unknown> = {};
  if (d.chance(0.6)) configuration.cpu = cpu(d, catalog);
  if (d.chance(0.6)) configuration.ram = Array.from({ length: d.int(0, 2) }, () => ram(d, catalog));
  if (d.chance(0.5)) {
    configuration.disk = Array.from({ length: d.int(0, 3) }, () => {
      const type = d.pick(["ssd", "hdd", "ssd", "SSD", "tape"]);
      return { type, ...disk(d, catalog, type.toLowerCase()) };
    });
  }
  if (d.chance(0.2)) configuration.power_supply = { units: d.int(1, 4), unit_weight: d.float(0.5, 5) };
  if (d.chance(0.25))
    configuration.gpu = {
      ...gpu(d, catalog),
      ...(d.chance(0.3) ? { usage: { avg_power: d.int(50, 700) } } : {}),
    };
  const body: Record<string, unknown> = { configuration };
  if (d.chance(0.3)) body.model = { type: d.pick(["rack", "blade", "tower"]) };
  if (d.chance(0.6)) body.usage = usage(d, catalog, "server");
  const archetype: Record<string, string> = d.chance(0.3)
    ? { archetype: d.pick(catalog.serverArchetypes) }
    : {};
  return { method: "POST", path: `/v1/server/?${query(d, catalog, archetype)}`, body };
}

function cloudRequest(d: Draw, catalog: Catalog): Omit<DifferentialRequest, "id" | "family"> {
  const provider = d.chance(0.97) ? d.pick(catalog.providers) : "nocloud";
  const instances = catalog.instances[provider] ?? ["m5.large"];
  let instance = d.pick(instances);
  if (d.chance(0.08)) instance = misspelled(d, instance);
  if (d.chance(0.1)) {
    return {
      method: "GET",
      path: `/v1/cloud/instance/instance_config?provider=${provider}&instance_type=${encodeURIComponent(instance)}`,
      body: null,
    };
  }
  if (d.chance(0.35)) {
    return {
      method: "GET",
      path: `/v1/cloud/instance?${query(d, catalog, { provider, instance_type: instance })}`,
      body: null,
    };
  }
  const u = usage(d, catalog, "cloud");
  const regions = catalog.regions[provider] ?? [];
  if (regions.length > 0 && d.chance(0.4)) u.region = d.chance(0.9) ? d.pick(regions) : "nowhere-1";
  return {
    method: "POST",
    path: `/v1/cloud/instance?${query(d, catalog)}`,
    body: { provider, instance_type: instance, usage: u },
  };
}

function componentRequest(d: Draw, catalog: Catalog): Omit<DifferentialRequest, "id" | "family"> {
  const kind = d.pick(COMPONENTS);
  if (d.chance(0.2)) return { method: "GET", path: `/v1/component/${kind}?${query(d, catalog)}`, body: null };
  let body: Record<string, unknown>;
  if (kind === "cpu") body = cpu(d, catalog);
  else if (kind === "ram") body = ram(d, catalog);
  else if (kind === "ssd" || kind === "hdd") body = disk(d, catalog, kind);
  else if (kind === "gpu") body = gpu(d, catalog);
  else if (kind === "case") body = d.chance(0.7) ? { case_type: d.pick(["rack", "blade", "tower"]) } : {};
  else if (kind === "power_supply") body = d.chance(0.7) ? { unit_weight: d.float(0.5, 5) } : {};
  else body = {};
  if (d.chance(0.3)) body.units = d.int(1, 4);
  if (d.chance(0.5)) body.usage = usage(d, catalog, "component");
  return { method: "POST", path: `/v1/component/${kind}?${query(d, catalog)}`, body };
}

function userDeviceRequest(
  d: Draw,
  catalog: Catalog,
  group: "terminal" | "peripheral",
): Omit<DifferentialRequest, "id" | "family"> {
  const kinds = group === "terminal" ? catalog.terminals : catalog.peripherals;
  const kind = d.pick(Object.keys(kinds));
  const archetypes = kinds[kind];
  if (d.chance(0.1)) return { method: "GET", path: `/v1/${group}/${kind}/archetypes`, body: null };
  if (d.chance(0.1))
    return {
      method: "GET",
      path: `/v1/${group}/${kind}/archetype_config?archetype=${d.pick(archetypes)}`,
      body: null,
    };
  const extra: Record<string, string> = d.chance(0.6)
    ? { archetype: d.chance(0.95) ? d.pick(archetypes) : "unknown-one" }
    : {};
  if (d.chance(0.4))
    return { method: "GET", path: `/v1/${group}/${kind}?${query(d, catalog, extra)}`, body: null };
  const body: Record<string, unknown> = {};
  if (d.chance(0.7)) body.usage = usage(d, catalog, "device");
  if (d.chance(0.1)) body.type = d.pick(["lcd", "oled", "pro", "consumer"]);
  return { method: "POST", path: `/v1/${group}/${kind}?${query(d, catalog, extra)}`, body };
}

function iotRequest(d: Draw, catalog: Catalog): Omit<DifferentialRequest, "id" | "family"> {
  const extra: Record<string, string> = d.chance(0.6)
    ? { archetype: d.chance(0.95) ? d.pick(catalog.iotArchetypes) : "unknown-one" }
    : {};
  if (d.chance(0.1))
    return {
      method: "GET",
      path: `/v1/iot/iot_device/archetype_config?archetype=${d.pick(catalog.iotArchetypes)}`,
      body: null,
    };
  if (d.chance(0.35))
    return { method: "GET", path: `/v1/iot/iot_device?${query(d, catalog, extra)}`, body: null };
  const body: Record<string, unknown> = {};
  if (d.chance(0.6)) {
    body.functional_blocks = Array.from({ length: d.int(0, 4) }, () => ({
      type: d.chance(0.95) ? d.pick(FUNCTIONAL_BLOCKS) : "ANTENNA",
      hsl_level: d.pick(["HSL-1", "HSL-2", "HSL-3", "HSL-4", "HSL-9"]),
      ...(d.chance(0.3) ? { units: d.int(1, 3) } : {}),
    }));
  }
  if (d.chance(0.7)) body.usage = usage(d, catalog, "device");
  return { method: "POST", path: `/v1/iot/iot_device?${query(d, catalog, extra)}`, body };
}

function profileRequest(d: Draw, catalog: Catalog): Omit<DifferentialRequest, "id" | "family"> {
  const body: Record<string, unknown> = { cpu: cpu(d, catalog) };
  if (d.chance(0.5)) {
    body.workload = Array.from({ length: d.int(1, 5) }, () => ({
      load_percentage: d.int(0, 100),
      power_watt: d.float(1, 400, 1),
    }));
  }
  if (d.chance(0.03)) body.workload = d.pick(BAD_VALUES);
  return { method: "POST", path: `/v1/consumption_profile/cpu?verbose=${d.chance(0.5)}`, body };
}

function utilsRequest(d: Draw, catalog: Catalog): Omit<DifferentialRequest, "id" | "family"> {
  const provider = d.pick(catalog.providers);
  const component = d.pick(COMPONENTS);
  const routes = [
    () =>
      `/v1/utils/name_to_cpu?cpu_name=${encodeURIComponent(d.chance(0.5) ? d.pick(catalog.cpuNames) : misspelled(d, d.pick(catalog.cpuNames)))}`,
    () =>
      `/v1/utils/name_to_gpu?gpu_name=${encodeURIComponent(d.chance(0.5) ? d.pick(catalog.gpuNames) : d.pick(["A100", "h100 sxm", "T4", "V100", "nothing"]))}`,
    () => `/v1/utils/cloud_regions?provider=${provider}`,
    () => `/v1/cloud/instance/all_instances?provider=${provider}`,
    () => `/v1/component/${component}/archetype`,
    () => `/v1/component/${component}/archetype_config?archetype=DEFAULT`,
    () => `/v1/server/archetype_config?archetype=${d.pick(catalog.serverArchetypes)}`,
    () =>
      d.pick([
        "/v1/utils/version",
        "/v1/utils/impact_criteria",
        "/v1/utils/case_type",
        "/v1/utils/gpu_name",
        "/v1/cloud/instance/all_providers",
        "/v1/server/archetypes",
        "/v1/terminal/all",
        "/v1/peripheral/all",
        "/v1/component/all",
        "/v1/utils/country_code",
      ]),
  ];
  return { method: "GET", path: d.pick(routes)(), body: null };
}

const BUILDERS: Record<Family, (d: Draw, catalog: Catalog) => Omit<DifferentialRequest, "id" | "family">> = {
  server: serverRequest,
  cloud: cloudRequest,
  component: componentRequest,
  terminal: (d, c) => userDeviceRequest(d, c, "terminal"),
  peripheral: (d, c) => userDeviceRequest(d, c, "peripheral"),
  iot: iotRequest,
  consumption_profile: profileRequest,
  utils: utilsRequest,
};

/** `count` requests of a family, the same for the same seed; about 1 in 100 POSTs has broken JSON. */
export function generate(
  family: Family,
  count: number,
  seed: number,
  catalog: Catalog,
): DifferentialRequest[] {
  const d = new Draw(seeded(seed * 31 + FAMILIES.indexOf(family)));
  return Array.from({ length: count }, (_, i) => {
    const request = BUILDERS[family](d, catalog);
    const id = `${family}-${String(i).padStart(4, "0")}`;
    if (request.method === "POST" && d.chance(0.01)) {
      return { ...request, id, family, body: null, bodyRaw: '{"usage": {"avg_power": 10,' };
    }
    return { ...request, id, family };
  });
}
