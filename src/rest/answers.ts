/*
 * JSON Schemas of what the v1 routes answer, which the shim builds from GraphQL results (there is
 * no zod schema of them): the OpenAPI description's `components.schemas`, each route naming its
 * 200 answer (`HandlerDoc.answer`). The tests validate real answers against them.
 */

type JsonObject = Record<string, unknown>;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const NAMES = { type: "array", items: { type: "string" } };

/** An archetype's value of one attribute: its default and bounds (`{}` when the archetype has none). */
const ATTRIBUTE_DEFAULT = {
  type: "object",
  properties: {
    default: { description: "The archetype's value (a number or a text)." },
    min: { type: "number" },
    max: { type: "number" },
  },
  additionalProperties: false,
};

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
  /** `GET /v1/cloud/coefficients/stream?format=csv` (src/rest/coefficientStream.ts). */
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
  /** `POST /v1/batch` answers NDJSON: each line is one of these (src/rest/batch.ts). */
  BatchAnswerLine: {
    description:
      'One line per request line, in order — `{"line": N, "status": 200, "warnings"?: [...], "body": <the route\'s answer>}` or its 4xx — then `{"summary": {"lines", "ok", "errors", "warnings", "total": {<criterion>: {"embedded", "use"}}}}`.',
    oneOf: [
      {
        type: "object",
        required: ["status", "body"],
        properties: {
          line: { type: "integer", description: "The input line answered (blank lines counted)." },
          status: { type: "integer" },
          warnings: {
            type: "array",
            items: { type: "string" },
            description: "What the body keeps silent about: a usage_location the edition does not know.",
          },
          body: {},
        },
      },
      {
        type: "object",
        required: ["summary"],
        properties: {
          summary: {
            type: "object",
            properties: {
              lines: { type: "integer" },
              ok: { type: "integer" },
              errors: { type: "integer" },
              warnings: { type: "integer", description: "Lines answered with warnings." },
              total: {
                type: "object",
                description: "Per criterion and phase, the sum of the lines' values (× quantity).",
                additionalProperties: { type: "object", additionalProperties: { type: "number" } },
              },
              interrupted: {
                type: "string",
                description:
                  "Present when the batch ended early (the service stopping, or the next line not received whole within BODY_TIMEOUT_MS): why; `lines` counts the lines answered.",
              },
            },
          },
        },
      },
    ],
  },
} satisfies Record<string, JsonObject>;

/** The name of a route's 200 answer schema. */
export type AnswerName = keyof typeof ANSWERS;

/** Every answer schema, with the parts they are made of and the error answers. */
export const ANSWER_SCHEMAS: Record<string, JsonObject> = {
  ...ANSWERS,
  AttributeDefault: ATTRIBUTE_DEFAULT,
  ImpactValue: {
    type: "object",
    description: "An impact with its error margin, rounded to the significant figures of its uncertainty.",
    required: ["value", "min", "max"],
    properties: {
      value: { type: "number" },
      min: { type: "number" },
      max: { type: "number" },
      warnings: { type: "array", items: { type: "string" } },
    },
  },
  PhaseImpact: {
    description: 'A phase\'s impact, or "not implemented" where the methodology has no factor for it.',
    oneOf: [ref("ImpactValue"), { type: "string", const: "not implemented" }],
  },
  CriterionImpact: {
    type: "object",
    properties: {
      unit: { type: "string", description: "Unit of the criterion, e.g. kgCO2eq." },
      description: { type: "string" },
      embedded: ref("PhaseImpact"),
      use: ref("PhaseImpact"),
    },
  },
  HTTPValidationError: {
    type: "object",
    description:
      "Request values that failed validation, in FastAPI's layout and the dialect of the request's edition: pydantic 1 (`loc`, `msg`, `type`, e.g. `type_error.integer`) or pydantic 2 (`type`, `loc`, `msg`, `input`, e.g. `int_parsing`), as the edition's request validation says (README, REST errors); `ctx` states a bound.",
    properties: {
      detail: {
        type: "array",
        items: {
          type: "object",
          required: ["loc", "msg", "type"],
          properties: {
            loc: { type: "array", items: { anyOf: [{ type: "string" }, { type: "integer" }] } },
            msg: { type: "string" },
            type: { type: "string" },
            input: { description: "pydantic 2: the refused value, as sent." },
            ctx: { type: "object", description: "The bound or allowed values broken." },
          },
        },
      },
    },
  },
  NotFound: {
    type: "object",
    properties: {
      detail: { type: "string", description: "What was not found, e.g. `<archetype> not found`." },
    },
  },
};
