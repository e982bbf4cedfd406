import {
  type CoefficientRow,
  coefficientCells,
  coefficientColumns,
  coefficientRowCount,
  coefficientTable,
  coefficientTerms,
  impactSlots,
  instanceCoefficientRows,
} from "../service/coefficients.js";
import { DomainError } from "../service/errors.js";
import type { EditionContext } from "../service/open.js";
import type { RequestContext } from "../service/requestState.js";
import { builder } from "./builder.js";
import { editionArg } from "./edition.js";
import { limitExceeded, spelledUseCase } from "./errors.js";
import { admitFleet } from "./execution/scheduling.js";
import { CriterionEnum } from "./impact.js";

/**
 * The coefficient table of cloud instances (src/service/coefficients.ts) as columns and rows, the
 * layout `impact-service coefficients` writes as CSV: per-hour embedded and use impacts of each
 * instance type and place, with min and max, unrounded.
 */
interface CoefficientTableShape {
  readonly edition: string;
  readonly load: number | null;
  readonly columns: readonly string[];
  readonly rows: readonly (readonly (string | number | null)[])[];
}

/**
 * Bytes of one cell of the answer, JSON: numbers are written in full (17 bytes a cell on average
 * in the 1.2.4 aws table, 54.7 MB for 135,240 rows × 24 columns), rounded up.
 */
const CELL_BYTES = 20;

/**
 * The table's answer is held whole (GraphQL's result, then its JSON): its size, rows × columns,
 * is known before any row is computed, checked against MAX_ANSWER_BYTES and admitted into the
 * process's budget of concurrent work as the fleet items of an answer of that size would be.
 */
async function admitTable(
  request: RequestContext,
  rows: number,
  columns: number,
  path: readonly (string | number)[],
): Promise<void> {
  const bytes = rows * columns * CELL_BYTES;
  const { maxAnswerBytes, maxFleetItems } = request.service.limits;
  if (bytes > maxAnswerBytes) {
    const megabytes = (n: number) => `${Math.round(n / 1e5) / 10} MB`;
    throw limitExceeded(
      `this coefficient table would take about ${megabytes(bytes)} (${rows} rows × ${columns} columns); at most ${megabytes(maxAnswerBytes)} is answered (MAX_ANSWER_BYTES); ask for fewer criteria or one instance type, or read it streamed from GET /v1/cloud/coefficients/stream`,
      "MAX_ANSWER_BYTES",
      path,
    );
  }
  await admitFleet(request, Math.ceil((bytes / maxAnswerBytes) * maxFleetItems), path, bytes);
}

async function coefficientShape(
  request: RequestContext,
  context: EditionContext,
  provider: string,
  instanceType: string | null | undefined,
  load: number | null | undefined,
  criteria: readonly string[] | null | undefined,
): Promise<CoefficientTableShape> {
  const { criteria: requested, load: checkedLoadValue } = coefficientTerms(context, { criteria, load });
  const columns = coefficientColumns(requested);
  const rowCount = coefficientRowCount(context, provider, instanceType);
  await admitTable(request, rowCount, columns.length, ["criteria"]);
  let rows: CoefficientRow[] = [];
  if (instanceType != null) {
    if (!context.service.data.cloudInstances.get(provider)?.byId.has(instanceType)) {
      throw new DomainError("NOT_FOUND", `${instanceType} at ${provider} not found`, ["instanceType"]);
    }
    rows = await instanceCoefficientRows(context, provider, instanceType, checkedLoadValue, requested);
  } else {
    for await (const row of coefficientTable(context, { provider, load, criteria }).rows) rows.push(row);
  }
  const edition = context.service.edition.id;
  const slots = impactSlots(requested);
  return {
    edition,
    load: checkedLoadValue,
    columns,
    rows: rows.map((row) => coefficientCells(edition, checkedLoadValue, slots, row)),
  };
}

const CoefficientTableRef = builder.objectRef<CoefficientTableShape>("CloudCoefficientTable").implement({
  description:
    "Per-hour impacts of cloud instances: for each instance type and place (a provider region, a usage location, or the edition's default, empty), the embedded and use impacts of one hour with min and max, unrounded — what cloudInstance computes for duration 1 before rounding. Over h hours an instance's impacts are these × h.",
  fields: (t) => ({
    edition: t.exposeString("edition", { description: "The edition the table was computed with." }),
    load: t.float({
      nullable: true,
      description: "The constant load (%) of every instance; null: the archetypes' default.",
      resolve: (table) => table.load,
    }),
    columns: t.exposeStringList("columns", {
      description:
        "Column names: edition, provider, instance_type, region, usage_location, load, then one per criterion, phase and bound, named with the unit (gwp_embedded_kgco2eq_per_hour, gwp_use_kgco2eq_min_per_hour…).",
    }),
    rows: t.field({
      type: "JSON",
      description: "The rows, each a list in the order of columns (null: empty place, or not implemented).",
      resolve: (table) => table.rows,
    }),
  }),
});

const resolveCoefficients = spelledUseCase(coefficientShape);

builder.queryFields((t) => ({
  cloudCoefficients: t.field({
    type: CoefficientTableRef,
    description:
      "The coefficient table of a provider's instance types (or of one): per-hour impacts per place, which a billing export's hours multiply (docs/billing.md). Its size is known before any row is computed: a table over MAX_ANSWER_BYTES is refused (code MAX_ANSWER_BYTES: ask fewer criteria or one instance type, or read GET /v1/cloud/coefficients/stream), and a large one waits for room in the fleet budget (HTTP 503 with Retry-After when the queue is full).",
    args: {
      provider: t.arg.string({ required: true, description: "Provider id, e.g. aws." }),
      instanceType: t.arg.string({ required: false, description: "Only this instance type (exact id)." }),
      load: t.arg.float({
        required: false,
        description: "Constant load, 0–100 %; default: the archetypes'.",
      }),
      criteria: t.arg({
        type: [CriterionEnum],
        required: false,
        description: "Criteria; default: the edition's.",
      }),
      edition: editionArg(t.arg),
    },
    resolve: (_root, args, context) =>
      resolveCoefficients(
        context,
        context.edition(args.edition),
        args.provider,
        args.instanceType,
        args.load,
        args.criteria,
      ),
  }),
}));
