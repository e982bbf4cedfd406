import {
  EVALUATE_PATH,
  OUTPUT_FORMATS,
  READ_ENDINGS,
} from "../../service/fileEvaluation/evaluationRequest.js";
import { FILE_EVALUATION_BOUNDS } from "../../service/fileEvaluation.js";
import { ref } from "./jsonSchema.js";
import { type DescribedEditions, detailAnswer } from "./parameters.js";

/*
 * `POST /v1/evaluate` (the /evaluate page's route, src/http/fileEvaluation/evaluateRoute.ts over
 * src/service/fileEvaluation.ts) in the OpenAPI document: its query as the service checks it
 * (evaluationRequest.ts), the file as the body, the NDJSON events of its answer (FileEvent).
 */

export { EVALUATE_PATH };

const MiB = 1024 * 1024;

/** One line of the answer: the run's progress, a file's part, its end or its refusal (component `FileEvent`). */
export const FILE_EVENT_SCHEMA = {
  type: "object",
  required: ["event"],
  properties: {
    event: { type: "string", enum: ["running", "file", "done", "refused"] },
    seconds: { type: "integer", description: "running: seconds since the file was received." },
    stage: { type: "string", description: "running: the run's stage (a bill's, an inventory's rows)." },
    lines: { type: "integer", description: "running: the lines of that stage, when known." },
    done: { type: "number", minimum: 0, maximum: 1, description: "running: the share of the run done." },
    role: { type: "string", enum: ["output", "report"], description: "file: which file." },
    name: { type: "string", description: "file: its name." },
    type: { type: "string", description: "file: its media type." },
    data: { type: "string", contentEncoding: "base64", description: "file: a part of its bytes." },
    encoding: { type: "string", enum: ["gzip"], description: "file: its parts are gzipped." },
    exitCode: { type: "integer", description: "done: the command's exit code (1: every row failed)." },
    summary: { type: "string", description: "done: the command's summary (its stderr)." },
    message: { type: "string", description: "refused: why, in the page's words." },
  },
};

/** The query of `POST /v1/evaluate`, as src/service/fileEvaluation/evaluationRequest.ts reads it. */
function fileParameters(editions: DescribedEditions) {
  return [
    {
      name: "name",
      in: "query",
      required: true,
      description:
        "The file's name: its ending says how it is read (.zip: a bill's parts, read as one bill).",
      example: "inventory.csv",
      schema: {
        type: "string",
        pattern: `(${READ_ENDINGS.map((e) => e.replaceAll(".", "\\.")).join("|")})$`,
      },
    },
    {
      name: "edition",
      in: "query",
      required: false,
      description:
        "Edition of the evaluation; default: the command line's, EDITION if set, else the edition for new work.",
      schema: { type: "string", enum: [...editions.editions] },
    },
    {
      name: "criteria",
      in: "query",
      required: false,
      description: "Criteria, comma-separated; default: the edition's.",
      schema: { type: "string" },
    },
    {
      name: "format",
      in: "query",
      required: false,
      description: "The output's format: csv or xlsx for an inventory, csv or parquet for a bill.",
      schema: { type: "string", enum: [...OUTPUT_FORMATS], default: "csv" },
    },
  ];
}

/** The operation of `POST /v1/evaluate`. */
export function fileEvaluationOperation(editions: DescribedEditions) {
  const bounds = FILE_EVALUATION_BOUNDS;
  return {
    operationId: "post_v1_evaluate",
    summary: "Evaluates a file — an inventory or a billing export — as the command line does",
    description:
      "The file is the body; the command line evaluates it in a child process (`impact-service evaluate FILE -o " +
      "OUT --report REPORT`) and the answer streams its progress, its output and report, then its summary, as " +
      `NDJSON. Bounds: ${bounds.maxBytes / MiB} MiB, ${bounds.maxLines.toLocaleString("en")} lines, ` +
      `${bounds.timeoutMs / 1000} s a run, ${bounds.maxConcurrent} runs at once, ${bounds.maxPerClient} a client.`,
    tags: ["evaluate"],
    parameters: fileParameters(editions),
    requestBody: {
      required: true,
      description: "The file's bytes.",
      content: {
        "application/octet-stream": {
          schema: { type: "string", format: "binary" },
          example: "kind,provider,instance_type,usage_location\ncloud,aws,m5.xlarge,FRA\nlaptop,,,FRA\n",
        },
      },
    },
    responses: {
      "200": {
        description: "NDJSON, streamed: running events, the report's and the output's parts, done or refused",
        content: { "application/x-ndjson": { schema: ref("FileEvent") } },
      },
      "413": detailAnswer(
        "The file is over a bound (bytes, lines; a ZIP archive's parts, their bytes or lines)",
      ),
      "415": detailAnswer("A ZIP archive named as another file"),
      "422": detailAnswer("A parameter refused, or an empty file"),
      "503": detailAnswer("As many runs as the service takes at once"),
    },
  };
}
