import { once } from "node:events";
import { writeFile } from "node:fs/promises";
import type { Writable } from "node:stream";
import { StartupDataError } from "../../config/referenceData.js";
import { loadConfig } from "../../config/serviceConfig.js";
import { estimatedInventory, type RouteAnswer } from "../../scan/estimate.js";
import type { EstimatedInventory, ScannedResource } from "../../scan/resources.js";
import { SERVICE_VERSION } from "../../support/serviceVersion.js";
import { editionOf, UsageError } from "../options.js";

/*
 * What the scan and a cloud-scanner file share on the command line: resources evaluated by the
 * service in this process, each through its single route as the REST shim answers it (the same
 * dispatch as an inventory's rows), and a text written to a file or to stdout.
 */

/** The service opened in this process, answering each resource's route in the edition asked. */
export async function openEstimator(asked: string | null) {
  const config = loadConfig(process.env);
  const edition = editionOf(asked ?? undefined, config);
  const { inProcessService, linesEdition } = await import("../inventoryChunk.js");
  let opened: ReturnType<typeof inProcessService>;
  try {
    opened = inProcessService({ edition });
  } catch (error) {
    if (error instanceof StartupDataError) throw new UsageError(`invalid data: ${error.message}`);
    throw error;
  }
  const resolved = linesEdition(opened.service, edition);
  if ("refused" in resolved) {
    const detail = (resolved.refused.body as { detail?: { msg?: string }[] } | null)?.detail;
    throw new UsageError(
      `--edition ${edition}: ${(Array.isArray(detail) ? detail[0]?.msg : undefined) ?? "not served"}`,
    );
  }
  const { inProcessRest } = await import("../../rest/inProcess.js");
  const dispatch = inProcessRest(opened.service, opened.logger);
  const answer: RouteAnswer = (request, query) =>
    dispatch({
      method: "POST",
      url: `${request.path}?${query}`,
      body: "",
      parsedBody: request.body,
      edition: resolved.served,
    });
  return { edition: resolved.served.edition.id, version: `impact-service ${SERVICE_VERSION}`, answer };
}

/** The resources' estimated inventory in the edition asked (`--edition`, else the command line's default). */
export async function estimateInProcess(
  resources: readonly ScannedResource[],
  asked: string | null,
  signal?: AbortSignal,
  notRead: readonly string[] = [],
): Promise<EstimatedInventory> {
  const { edition, version, answer } = await openEstimator(asked);
  return estimatedInventory(resources, answer, {
    edition,
    version,
    verbose: false,
    date: new Date().toISOString(),
    notRead,
    ...(signal === undefined ? {} : { signal }),
  });
}

/** Writes `text` to the file, or to `stdout` for `-`. */
export async function writeText(path: string, text: string, stdout: Writable): Promise<void> {
  if (path !== "-") {
    await writeFile(path, text);
    return;
  }
  if (!stdout.write(text)) await once(stdout, "drain");
}

/** The resources not evaluated, each in one line: `i-0ab…: not evaluated: stopped: it runs nothing`. */
export function notEvaluatedLines(
  estimated: EstimatedInventory,
  name: string,
  only?: ReadonlySet<string>,
): string[] {
  return estimated.impacting_resources.flatMap((item) =>
    item.impacts_values === null && (only === undefined || only.has(item.cloud_resource.id))
      ? [`${name}: ${item.cloud_resource.id}: ${(item.warnings ?? ["not evaluated"]).join("; ")}`]
      : [],
  );
}
