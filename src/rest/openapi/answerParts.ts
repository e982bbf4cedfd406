import { type JsonObject, ref } from "./jsonSchema.js";

/*
 * The JSON Schemas the route answers are made of (an impact, an archetype's attribute), the error
 * answers, and the line of the batch route's NDJSON answer (`src/rest/routes/batch.ts`).
 */

/** `POST /v1/batch` answers NDJSON: each line is one of these (src/rest/routes/batch.ts). */
export const BATCH_ANSWER_LINE: JsonObject = {
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
};

/** The parts the answers are made of, and the error answers. */
export const ANSWER_PARTS: Record<string, JsonObject> = {
  /** An archetype's value of one attribute: its default and bounds (`{}` when the archetype has none). */
  AttributeDefault: {
    type: "object",
    properties: {
      default: { description: "The archetype's value (a number or a text)." },
      min: { type: "number" },
      max: { type: "number" },
    },
    additionalProperties: false,
  },
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
      "Request values that failed validation, in FastAPI's layout and the dialect of the request's edition: pydantic 1 (`loc`, `msg`, `type`, e.g. `type_error.integer`) or pydantic 2 (`type`, `loc`, `msg`, `input`, e.g. `int_parsing`), as the edition's request validation says (docs/api.md, REST errors); `ctx` states a bound.",
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
