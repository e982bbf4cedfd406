import { ELECTRICITY_CRITERIA } from "../../service/engineVocabulary.js";
import { GPUS } from "../editionFeatures.js";
import {
  CaseTypesDocument,
  CountryCodesDocument,
  CpuByNameDocument,
  CpuFamiliesDocument,
  CpuModelRangesDocument,
  CpuNamesDocument,
  EditionsDocument,
  GpuByNameDocument,
  GpuNamesDocument,
  ImpactCriteriaDocument,
  RamManufacturersDocument,
  SsdManufacturersDocument,
  VersionDocument,
} from "../generated/graphql.js";
import { documented, type Handler, ok, type Route, required } from "../restRoute.js";
import { listing } from "../routeBuilders.js";

const GPU_BY_NAME_DOC = {
  summary: "The GPU of the reference table best matching a name (fuzzy), as a v1 GPU body",
  query: [
    {
      name: "gpu_name",
      description: "GPU name, e.g. NVIDIA A100 PCIe 40GB.",
      required: true,
      schema: { type: "string" },
      example: "NVIDIA A100 PCIe 40GB",
    },
  ],
  answer: "GpuByName",
} as const;

const CPU_NOT_FOUND = (name: string) => `CPU name ${name} is not found in our database`;
const GPU_NOT_FOUND = (name: string) => `GPU name ${name} is not found in our database`;

/** The v1 usage object with every field null (`name_to_cpu`, `name_to_gpu`). */
function emptyUsage() {
  return {
    use_time_ratio: null,
    hours_life_time: null,
    avg_power: null,
    time_workload: null,
    usage_location: null,
    elec_factors: Object.fromEntries(ELECTRICITY_CRITERIA.map((criterion) => [criterion, null])),
  };
}

/** `name_to_gpu` answers the full v1 GPU request object (docs/methodology.md §19.5.6). */
const nameToGpu: Handler = documented(async (request, run) => {
  const name = required(request.params, "gpu_name");
  const { gpuByName: row } = await run(GpuByNameDocument, { name });
  if (!row) return ok(GPU_NOT_FOUND(name));
  return ok({
    units: null,
    usage: emptyUsage(),
    name: row.name,
    manufacturer: row.manufacturer,
    weight: row.weight,
    heatsink_weight: row.heatsinkWeight,
    pwb_surface: row.pwbSurface,
    pwb_weight: null,
    casing_weight: row.casingWeight,
    gpu_surface: row.gpuSurface,
    vram: row.vram,
    vram_dies: row.vramDies,
    vram_surface: null,
    transport_boat: row.transportBoat,
    transport_truck: row.transportTruck,
    transport_plane: row.transportPlane,
  });
}, GPU_BY_NAME_DOC);

/** `name_to_cpu` answers the full v1 CPU request object (§16). */
const nameToCpu: Handler = documented(
  async (request, run) => {
    const name = required(request.params, "cpu_name");
    const { cpuByName } = await run(CpuByNameDocument, { name });
    if (!cpuByName) return ok(CPU_NOT_FOUND(name));
    return ok({
      units: null,
      usage: emptyUsage(),
      core_units: cpuByName.coreUnits,
      // Kept quirk (docs/methodology.md Appendix D.34): the die size is truncated, as the name
      // completion truncates it (§4.2.2); the table keeps its decimals (442.5 → 442).
      die_size: cpuByName.dieSize === null ? null : Math.trunc(cpuByName.dieSize),
      die_size_per_core: null,
      manufacturer: cpuByName.manufacturer,
      model_range: cpuByName.modelRange,
      family: cpuByName.family,
      name: cpuByName.name,
      tdp: cpuByName.tdp,
    });
  },
  {
    summary: "The CPU of the reference table best matching a name (fuzzy), as a v1 CPU body",
    query: [
      {
        name: "cpu_name",
        description: "CPU name, e.g. Intel Xeon Gold 6134.",
        required: true,
        schema: { type: "string" },
        example: "Intel Xeon Gold 6134",
      },
    ],
    answer: "CpuByName",
  },
);

export const utilsRoutes: readonly Route[] = [
  {
    path: "/v1/utils/version",
    methods: {
      // The methodology version as a JSON string, as boaviztapi 2.4.1 answers its own ("2.4.1");
      // 1.2.4 has no such route (docs/methodology.md §19.11.1): served there too, an addition.
      GET: documented(async (_request, run) => ok((await run(VersionDocument, {})).version.methodology), {
        summary: "The version of the methodology (boaviztapi release) the answers follow",
        answer: "Version",
      }),
    },
  },
  {
    path: "/v1/utils/editions",
    methods: {
      // An addition (no boaviztapi route): the editions served, custom ones (EDITIONS_FILE) included.
      GET: documented(async (_request, run) => ok((await run(EditionsDocument, {})).editions), {
        summary: "Every edition served: id, base edition, data folder and methodology version",
        answer: "Editions",
      }),
    },
  },
  {
    path: "/v1/utils/country_code",
    methods: { GET: listing(CountryCodesDocument, "countryCodes", "Country codes by name", "CountryCodes") },
  },
  { path: "/v1/utils/cpu_family", methods: { GET: listing(CpuFamiliesDocument, "cpuFamilies") } },
  { path: "/v1/utils/cpu_model_range", methods: { GET: listing(CpuModelRangesDocument, "cpuModelRanges") } },
  { path: "/v1/utils/cpu_name", methods: { GET: listing(CpuNamesDocument, "cpuNames") } },
  {
    path: "/v1/utils/ssd_manufacturer",
    methods: { GET: listing(SsdManufacturersDocument, "ssdManufacturers") },
  },
  {
    path: "/v1/utils/ram_manufacturer",
    methods: { GET: listing(RamManufacturersDocument, "ramManufacturers") },
  },
  { path: "/v1/utils/case_type", methods: { GET: listing(CaseTypesDocument, "caseTypes") } },
  { path: "/v1/utils/name_to_cpu", methods: { GET: nameToCpu } },
  { path: "/v1/utils/name_to_gpu", requires: GPUS, methods: { GET: nameToGpu } },
  { path: "/v1/utils/gpu_name", requires: GPUS, methods: { GET: listing(GpuNamesDocument, "gpuNames") } },
  {
    path: "/v1/utils/impact_criteria",
    methods: {
      GET: documented(
        async (_request, run) => {
          const { impactCriteria } = await run(ImpactCriteriaDocument, {});
          return ok(
            Object.fromEntries(
              impactCriteria.map((c) => [
                c.key,
                { name: c.name, unit: c.unit, description: c.description, method: c.method },
              ]),
            ),
          );
        },
        { summary: "The impact criteria of the edition", answer: "ImpactCriteria" },
      ),
    },
  },
];
