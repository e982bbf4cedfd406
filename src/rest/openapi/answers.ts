import { ANSWER_PARTS, BATCH_ANSWER_LINE } from "./answerParts.js";
import { type JsonObject, ref } from "./jsonSchema.js";

/*
 * JSON Schemas of what the v1 routes answer, which the shim builds from GraphQL results (there is
 * no zod schema of them): the OpenAPI description's `components.schemas`, each route naming its
 * 200 answer (`HandlerDoc.answer`). The tests validate real answers against them.
 */

const NAMES = { type: "array", items: { type: "string" } };

/** The schemas a route may name as its 200 answer. */
const ANSWERS = {
  ImpactAnswer: {
    type: "object",
    required: ["impacts"],
    properties: {
      impacts: {
        type: "object",
        description: "Impacts by criterion (gwp, adp, pe, …).",
        additionalProperties: ref("CriterionImpact"),
      },
      verbose: {
        type: "object",
        description:
          "With verbose=true: every attribute with its value and status, and per-component impacts.",
      },
      warnings: {
        type: "array",
        items: { type: "string" },
        description: "Cloud instances: what the evaluation could not do as asked (absent when none).",
      },
      energy: {
        type: "object",
        description:
          "Consumption-profile impacts: the electricity drawn over the duration, {value, min, max, unit: kWh}.",
      },
    },
  },
  GenerativeAiAnswer: {
    type: "object",
    required: ["impacts", "edition", "provider", "model", "zone"],
    description: "A request to a generative-AI model (docs/methodology.md, Generative AI).",
    properties: {
      impacts: {
        type: "object",
        description:
          "Impacts by criterion (gwp, adp, pe, fe in kWh, wcf in L): unrounded, min and max, the value their mean.",
        additionalProperties: ref("CriterionImpact"),
      },
      verbose: {
        type: "object",
        description: "With verbose=true: every input, figure and factor read, with its status and source.",
      },
      edition: { type: "string", description: "The edition evaluating it (EcoLogits' release)." },
      provider: { type: "string" },
      model: { type: "string" },
      zone: {
        type: "string",
        description: "The electricity's zone read (the provider's data centres' by default).",
      },
      warnings: {
        type: "array",
        items: { type: "string" },
        description: "The data's caveats (the model's architecture, the zone's factors); absent when none.",
      },
    },
  },
  GenerativeAiModels: {
    type: "array",
    description: "The models of the generative-AI edition's data.",
    items: {
      type: "object",
      required: ["provider", "name"],
      properties: { provider: { type: "string" }, name: { type: "string" } },
    },
  },
  Names: { ...NAMES, description: "Ids or names, in the reference's order." },
  Links: {
    type: "object",
    description: "Each kind of the family and its route.",
    additionalProperties: { type: "string" },
  },
  CountryCodes: {
    type: "object",
    description: "Country or area name → its code (usage_location).",
    additionalProperties: { type: "string" },
  },
  ArchetypeConfig: {
    type: "object",
    description:
      "The archetype's attributes (default and bounds), grouped by component or block where it has several (CPU, RAM, USAGE, CASING, …).",
    additionalProperties: {
      anyOf: [ref("AttributeDefault"), { type: "object", additionalProperties: ref("AttributeDefault") }],
    },
  },
  Version: {
    type: "string",
    description: "The methodology version of the request's edition (its base's, for a custom edition).",
  },
  Editions: {
    type: "array",
    description: "Every edition served, built-in ones first, then the custom ones (EDITIONS_FILE).",
    items: {
      type: "object",
      required: ["id", "base", "data", "methodology"],
      properties: {
        id: { type: "string", description: "What `edition` names it by." },
        base: {
          type: ["string", "null"],
          description: "A custom edition's built-in base; null for a built-in one.",
        },
        data: {
          type: ["string", "null"],
          description: "A custom edition's data folder; null for a built-in one.",
        },
        methodology: { type: "string", description: "The methodology version of its answers." },
      },
      additionalProperties: false,
    },
  },
  CpuByName: {
    description: "The CPU as a v1 CPU body, or a text saying the name is not found.",
    anyOf: [ref("Cpu"), { type: "string" }],
  },
  GpuByName: {
    description: "The GPU as a v1 GPU body, or a text saying the name is not found.",
    anyOf: [ref("Gpu"), { type: "string" }],
  },
  ImpactCriteria: {
    type: "object",
    description: "Criterion key → its name, unit, description and method.",
    additionalProperties: {
      type: "object",
      required: ["name", "unit", "description"],
      properties: {
        name: { type: "string" },
        unit: { type: "string" },
        description: { type: "string" },
        method: { type: ["string", "null"] },
      },
    },
  },
  CloudRegions: {
    type: "array",
    items: {
      type: "object",
      required: ["provider", "region"],
      properties: { provider: { type: "string" }, region: { type: "string" } },
    },
  },
  CloudCoefficients: {
    type: "object",
    required: ["edition", "columns", "rows"],
    description:
      "Per-hour embedded and use impacts (value, min, max; unrounded) of each instance type and place: rows of cells in the order of columns.",
    properties: {
      edition: { type: "string" },
      load: { type: ["number", "null"] },
      columns: { type: "array", items: { type: "string" } },
      rows: { type: "array", items: { type: "array", items: { type: ["string", "number", "null"] } } },
    },
  },
  /** `GET /v1/cloud/coefficients/stream?format=csv` (src/rest/routes/coefficientStream.ts). */
  CloudCoefficientsCsv: {
    type: "string",
    description:
      "The coefficient table as CSV: a header line (the columns of CloudCoefficients), then one line per row; numbers in full.",
  },
  /** `GET /v1/cloud/coefficients/stream?format=ndjson`: one of these per line. */
  CloudCoefficientRow: {
    type: "object",
    description: "One row of the coefficient table, keyed by the columns of CloudCoefficients.",
    required: ["edition", "provider", "instance_type"],
    additionalProperties: { type: ["string", "number", "null"] },
  },
  ConsumptionProfile: {
    type: "object",
    description: "power (W) = a·ln(b·(load + c)) + d, load in %.",
    required: ["a", "b", "c", "d"],
    properties: {
      a: { type: "number" },
      b: { type: "number" },
      c: { type: "number" },
      d: { type: "number" },
    },
  },
  EstimatedInventory: {
    type: "object",
    description:
      "Boavizta cloud-scanner's estimated inventory (its model.rs): each resource with its impacts over its hours.",
    required: ["metadata", "impacting_resources"],
    properties: {
      metadata: { type: "object" },
      impacting_resources: {
        type: "array",
        items: {
          type: "object",
          required: ["cloud_resource", "impacts_values", "impacts_duration_hours"],
          properties: {
            cloud_resource: { type: "object", description: "The resource as the inventory gave it." },
            impacts_values: {
              type: ["object", "null"],
              description: "gwp, adp, pe of manufacture and use (null: not evaluated, `warnings` says why).",
            },
            impacts_duration_hours: { type: "number" },
            warnings: { type: "array", items: { type: "string" } },
          },
        },
      },
    },
  },
  BaseProfiles: {
    type: "array",
    items: {
      type: "object",
      required: ["manufacturer", "model_range", "a", "b", "c", "d"],
      properties: {
        manufacturer: { type: "string" },
        model_range: { type: "string" },
        a: { type: "number" },
        b: { type: "number" },
        c: { type: "number" },
        d: { type: "number" },
      },
    },
  },
} satisfies Record<string, JsonObject>;

/** The name of a route's 200 answer schema. */
export type AnswerName = keyof typeof ANSWERS;

/** Every answer schema, with the parts they are made of and the error answers. */
export const ANSWER_SCHEMAS: Record<string, JsonObject> = {
  ...ANSWERS,
  BatchAnswerLine: BATCH_ANSWER_LINE,
  ...ANSWER_PARTS,
};
