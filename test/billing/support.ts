/**
 * What the billing tests compare with: the single route's evaluation of a cloud instance, unrounded
 * (`POST /v1/cloud/instance` computes it, then rounds it for its answer), on the shared app.
 */
import { expect } from "vitest";
import { billingTerms } from "../../src/billing/bill.js";
import { billLayout } from "../../src/billing/reading/layout.js";
import type { BillingAsked, BillingRequest, BillingTerms } from "../../src/billing/stages/request.js";
import { Evaluation, type RawImpact, type RequestedCriterion } from "../../src/engine/index.js";
import { prepareCloudInstance } from "../../src/service/cloud.js";
import { type CoefficientPlace, usageOf } from "../../src/service/coefficients.js";
import type { EditionContext } from "../../src/service/open.js";
import { createRequestContext } from "../../src/service/requestState.js";
import { sharedApp } from "../support/app.js";

export const app = sharedApp();

/** A fresh request context of an edition (as each REST call has). */
export function editionContext(edition: string): EditionContext {
  return createRequestContext(app.service, { spellError: (error) => error }).edition(edition);
}

/** The single route's impacts for `hours` hours, per criterion and phase, before rounding. */
export async function routeRaw(
  edition: string,
  provider: string,
  instanceType: string,
  place: CoefficientPlace,
  load: number | null,
  hours: number,
  criteria: readonly RequestedCriterion[],
): Promise<{ embedded: RawImpact | null; use: RawImpact | null }[]> {
  const context = editionContext(edition);
  const prepared = await prepareCloudInstance(context, provider, instanceType, usageOf(place, load), [
    "usage",
  ]);
  const evaluation = new Evaluation(prepared.build(), { duration: hours, allocation: "LINEAR", criteria });
  return criteria.map((criterion) => ({
    embedded: evaluation.raw(criterion, "embedded"),
    use: evaluation.raw(criterion, "use"),
  }));
}

/**
 * Equal within a relative 1e-9 (both zero included). The check is made here and vitest's `expect`
 * (about 17 µs a call, its message built each time) is called only where it fails, to report it:
 * the coefficient tables' tests check some 10^5 numbers.
 */
export function expectClose(actual: number, expected: number, what: string): void {
  const scale = Math.max(Math.abs(actual), Math.abs(expected));
  if (scale === 0) return;
  const difference = Math.abs(actual - expected) / scale;
  if (!(difference <= 1e-9))
    expect(difference, `${what}: ${actual} vs ${expected}`).toBeLessThanOrEqual(1e-9);
}

/**
 * A billing run's request for `file` written to `output` (CSV unless `output` ends in .parquet):
 * its layout read as the command line reads it, no option but those `asked`.
 */
export function billingRequest(
  file: string,
  output: string,
  asked: Partial<BillingRequest> = {},
): BillingRequest {
  return {
    file,
    layout: billLayout(file),
    input: null,
    output,
    format: output.endsWith(".parquet") ? "parquet" : "csv",
    groupBy: [],
    groupsOutput: null,
    instanceTypeColumn: null,
    strict: false,
    ...asked,
  };
}

/**
 * A billing run's terms in `edition`, checked as the command line checks them: the cloud regions
 * known are those of the first edition that has them (src/cli/editionNotes.ts), no term but those
 * `asked`.
 */
export function billingTermsOf(edition: string, asked: Partial<BillingAsked> = {}): BillingTerms {
  const knownRegions = [...app.service.editions.values()].find((served) => served.data.cloudRegions !== null);
  return billingTerms(editionContext(edition), knownRegions?.data.cloudRegions ?? [], {
    criteria: null,
    load: null,
    ranges: false,
    ...asked,
  });
}
