import { STREAM_FORMATS } from "../routes/coefficientStream.js";

/** The route's OpenAPI operation (src/rest/openapi/index.ts adds it to the shim's routes). */
export function coefficientStreamOperation(editions: {
  readonly methodology: string;
  readonly editions: readonly string[];
}) {
  const error = (description: string) => ({
    description,
    content: { "application/json": { schema: { type: "object", properties: { detail: {} } } } },
  });
  return {
    operationId: "get_v1_cloud_coefficients_stream",
    summary: "The coefficient table of a provider, streamed as CSV or NDJSON",
    description:
      "What GET /v1/cloud/coefficients answers as one JSON body ({edition, load, columns, rows}), written row by " +
      "row as it is computed: CSV with a header line (the columns of `impact-service coefficients`), or NDJSON, " +
      "one object per row keyed by those columns. The query is checked before the first byte; the rows follow " +
      "the client's reading, and stop being computed when it leaves.",
    tags: ["cloud"],
    parameters: [
      {
        name: "format",
        in: "query",
        required: false,
        description: "csv (default) or ndjson.",
        schema: { type: "string", enum: Object.keys(STREAM_FORMATS), default: "csv" },
      },
      {
        name: "provider",
        in: "query",
        required: false,
        description: "Cloud provider (default aws).",
        schema: { type: "string", default: "aws" },
      },
      {
        name: "load",
        in: "query",
        required: false,
        description: "Constant load of every instance, 0–100 % (default: the archetypes').",
        schema: { type: "number", minimum: 0, maximum: 100 },
      },
      {
        name: "criteria",
        in: "query",
        required: false,
        description: "Criteria (repeat the parameter for several); default: the edition's (gwp, adp, pe).",
        schema: { type: "array", items: { type: "string" } },
      },
      {
        name: "edition",
        in: "query",
        required: false,
        description: `Edition; default ${editions.methodology}.`,
        schema: { type: "string", enum: [...editions.editions], default: editions.methodology },
      },
    ],
    responses: {
      "200": {
        description: "The table, streamed",
        content: {
          [STREAM_FORMATS.csv.split(";")[0]]: {
            schema: { $ref: "#/components/schemas/CloudCoefficientsCsv" },
          },
          [STREAM_FORMATS.ndjson]: { schema: { $ref: "#/components/schemas/CloudCoefficientRow" } },
        },
      },
      "404": error("Unknown provider"),
      "422": error("Unknown edition, format or criterion, or a load that is not a number in 0–100"),
      "503": {
        ...error(
          "MAX_CONCURRENT_STREAMS tables are being streamed; retry after the Retry-After header's seconds",
        ),
        headers: { "Retry-After": { schema: { type: "integer" } } },
      },
    },
  };
}
