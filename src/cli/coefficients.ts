/*
 * `impact-service coefficients --edition 2.4.1 [--provider aws] [--load 50] --format csv|parquet`:
 * the coefficient table (per-hour impacts of every instance type and place) on stdout or a file.
 */

import { once } from "node:events";
import type { Writable } from "node:stream";
import { withMethodRows } from "../billing/stages/methodRows.js";
import { loadConfig } from "../config/serviceConfig.js";
import { NEW_WORK_DEFAULT } from "../editions/index.js";
import { coefficientCsv, coefficientTable } from "../service/coefficients.js";
import { openEdition } from "../service/open.js";
import { checkedOutput } from "../support/namedFiles.js";
import { pipedOutput } from "../support/outputFile.js";
import {
  type CommandIo,
  checkedCriteria,
  editionOf,
  failure,
  loadOf,
  parsedOptions,
  tableFormatOf,
} from "./options.js";

export const COEFFICIENTS_USAGE = `usage: impact-service coefficients [options]

  --edition <id>        edition (default: ${NEW_WORK_DEFAULT})
  --provider <name>     one provider's instance types (default: every provider)
  --load <percent>      constant load of every instance (default: the archetype's)
  --criteria <list>     criteria, comma-separated (default: the edition's, e.g. gwp,adp,pe)
  --methods             also the rows of the billing methods' units (method:ssd-gb-hour,
                        method:vcpu-hour…: docs/billing.md, "The whole bill"), per provider a
                        bill names and place; they do not depend on --load
  --format csv|parquet  output format (default csv)
  -o, --output <file>   where to write (default: stdout; parquet needs a file)
`;

async function write(stream: Writable, text: string): Promise<void> {
  if (!stream.write(text)) await once(stream, "drain");
}

/** `impact-service coefficients …`; the exit code. */
export async function coefficientsMain(argv: readonly string[], io: CommandIo): Promise<number> {
  try {
    const { values } = parsedOptions({
      args: [...argv],
      options: {
        edition: { type: "string" },
        provider: { type: "string" },
        load: { type: "string" },
        criteria: { type: "string" },
        format: { type: "string" },
        output: { type: "string", short: "o" },
        methods: { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
      },
    });
    if (values.help) {
      io.stdout.write(COEFFICIENTS_USAGE);
      return 0;
    }
    const format = tableFormatOf(values.format, values.output);
    if (values.output !== undefined) checkedOutput("--output", values.output);
    const config = loadConfig(process.env);
    const edition = editionOf(values.edition, config);
    const criteria = checkedCriteria(values.criteria, edition, config);
    const { context } = openEdition(config, edition, false);
    const instances = coefficientTable(context, {
      provider: values.provider ?? null,
      load: loadOf(values.load),
      criteria,
    });
    const table = values.methods ? withMethodRows(context, instances, values.provider ?? null) : instances;
    if (format === "parquet") {
      // DuckDB (a second of start-up) only where it writes: Parquet.
      const { writeCoefficientParquet } = await import("../billing/coefficientParquet.js");
      await writeCoefficientParquet(table, values.output as string);
    } else if (values.output !== undefined) {
      await pipedOutput(values.output, () => coefficientCsv(table));
    } else {
      for await (const chunk of coefficientCsv(table)) await write(io.stdout, chunk);
    }
    return 0;
  } catch (error) {
    return failure(io, error);
  }
}
