import { type DescribedEditions, editionParameter } from "./parameters.js";

/** What Swagger UI's "Try it out" sends: two lines answered 200 (a GET and a POST). */
const BATCH_EXAMPLE = [
  { method: "GET", path: "/v1/server/?verbose=false" },
  { path: "/v1/component/ram?verbose=false", body: { units: 2, capacity: 16 }, quantity: 10 },
]
  .map((line) => JSON.stringify(line))
  .join("\n");

/** One line of a batch's body. */
const BATCH_LINE = {
  type: "object",
  required: ["path"],
  properties: {
    method: { type: "string", enum: ["POST", "GET"], default: "POST" },
    path: {
      type: "string",
      description: "A single /v1 route with its query string, e.g. /v1/cloud/instance?verbose=false.",
      maxLength: 2048,
    },
    body: { description: "The route's JSON body (POST)." },
    quantity: {
      type: "integer",
      minimum: 1,
      default: 1,
      description:
        "How many such assets the line stands for: its impacts count that many times in the total.",
    },
  },
};

/** The answers of `POST /v1/batch`: NDJSON streamed, or a refusal of the whole batch before any line. */
const BATCH_RESPONSES = {
  "200": {
    description: "NDJSON, streamed",
    content: { "application/x-ndjson": { schema: { $ref: "#/components/schemas/BatchAnswerLine" } } },
  },
  "422": {
    description: "Unknown edition",
    content: { "application/json": { schema: { $ref: "#/components/schemas/HTTPValidationError" } } },
  },
  "503": {
    description:
      "MAX_CONCURRENT_BATCHES batches are running, or this client's MAX_BATCHES_PER_CLIENT; retry after the Retry-After header's seconds",
    headers: { "Retry-After": { schema: { type: "integer" } } },
    content: {
      "application/json": { schema: { type: "object", properties: { detail: { type: "string" } } } },
    },
  },
};

/** The operation of `POST /v1/batch` (src/rest/routes/batch.ts; index.ts adds it to the shim's routes). */
export function batchOperation(editions: DescribedEditions) {
  return {
    operationId: "post_v1_batch",
    summary: "Many requests in one: NDJSON in, NDJSON out, answered as the lines arrive",
    description:
      "Each line is a request to a single /v1 route, answered exactly as that route answers it (a bad line " +
      "never fails the others); the answer streams while the body is still arriving, so a client reads as it " +
      "sends. No limit on the number of lines; each line is bounded as a single request's body (MAX_BODY_BYTES). " +
      "At most MAX_CONCURRENT_BATCHES batches run at once, MAX_BATCHES_PER_CLIENT of one client address " +
      "(503 with Retry-After beyond).",
    tags: ["batch"],
    parameters: [
      editionParameter(
        editions,
        `Edition of the lines whose path names none; default ${editions.methodology}.`,
      ),
    ],
    requestBody: {
      required: true,
      description: "NDJSON: one request per line.",
      content: { "application/x-ndjson": { schema: BATCH_LINE, example: BATCH_EXAMPLE } },
    },
    responses: BATCH_RESPONSES,
  };
}
