import { STREAM_FORMATS } from "../routes/coefficientStream.js";
import { type DescribedEditions, detailAnswer, editionParameter } from "./parameters.js";

/** The query of the stream: the coefficient table's, and the format it is written in. */
function streamParameters(editions: DescribedEditions) {
  return [
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
    editionParameter(editions, `Edition; default ${editions.methodology}.`),
  ];
}

/** The answers of the stream: the table in either format, or a refusal before its first byte. */
const STREAM_RESPONSES = {
  "200": {
    description: "The table, streamed",
    content: {
      [STREAM_FORMATS.csv.split(";")[0]]: {
        schema: { $ref: "#/components/schemas/CloudCoefficientsCsv" },
      },
      [STREAM_FORMATS.ndjson]: { schema: { $ref: "#/components/schemas/CloudCoefficientRow" } },
    },
  },
  "404": detailAnswer("Unknown provider"),
  "422": detailAnswer("Unknown edition, format or criterion, or a load that is not a number in 0–100"),
  "503": {
    ...detailAnswer(
      "MAX_CONCURRENT_STREAMS tables are being streamed; retry after the Retry-After header's seconds",
    ),
    headers: { "Retry-After": { schema: { type: "integer" } } },
  },
};

/** The route's OpenAPI operation (src/rest/openapi/index.ts adds it to the shim's routes). */
export function coefficientStreamOperation(editions: DescribedEditions) {
  return {
    operationId: "get_v1_cloud_coefficients_stream",
    summary: "The coefficient table of a provider, streamed as CSV or NDJSON",
    description:
      "What GET /v1/cloud/coefficients answers as one JSON body ({edition, load, columns, rows}), written row by " +
      "row as it is computed: CSV with a header line (the columns of `impact-service coefficients`), or NDJSON, " +
      "one object per row keyed by those columns. The query is checked before the first byte; the rows follow " +
      "the client's reading, and stop being computed when it leaves.",
    tags: ["cloud"],
    parameters: streamParameters(editions),
    responses: STREAM_RESPONSES,
  };
}
