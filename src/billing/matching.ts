/*
 * The instance type a billing line names, matched to the edition's as the single route matches
 * it (the exact id, else the closest id where the edition has a threshold, with its warning), once
 * per distinct name of the export. Before that, the providers' billing spellings: an RDS type is
 * the edition's own `db.` type where it lists one, else the type without `db.` (so too a managed
 * node's `cache.`, `ml.`, `kafka.`: docs/methodology.md); an OpenSearch type
 * likewise with `.search` (or the `.elasticsearch` the data names them with); an Azure meter's
 * case does not matter, nor its `Standard_` prefix (the edition's ids have it or not).
 */

import { instanceRow, providerTable } from "../service/cloud.js";
import { DomainError } from "../service/errors.js";
import type { EditionContext } from "../service/open.js";
import { type BilledShape, familyOf, shapeOf, typeByBilledShape, typeByShape } from "./instanceShapes.js";
import { providerOf } from "./providers/index.js";
import {
  catalogueKey,
  catalogueNote,
  catalogueSize,
  MANAGED_SIZE,
  sizeLabel,
} from "./registry/managedServices.js";

/**
 * How a billed name was matched, as a code: `exact`, `closest` (the edition's closest id, its
 * threshold's), `by-shape` (its family's type of its vCPUs: the method `instance-by-shape`),
 * `catalogue` (a managed size's server), `catalogue-by-shape` (a managed size as its provider's VM
 * of that name), `key` (a method's key, itself), `none` (unmatched). Readers read it, never the
 * warning's words (the table instance_matches' `match_kind`).
 */
export type MatchKind =
  | "exact"
  | "closest"
  | "by-shape"
  | "catalogue"
  | "catalogue-by-shape"
  | "key"
  | "none";

export interface InstanceMatch {
  readonly provider: string;
  readonly billingInstanceType: string;
  /** Null: the edition has no such instance type. */
  readonly matchedInstanceType: string | null;
  /** Set when the name was matched approximately. */
  readonly warning: string | null;
  readonly kind: MatchKind;
}

/** A method's key matched to itself (its coefficient rows are the key's own). */
export const keyMatch = (provider: string, key: string): InstanceMatch => ({
  provider,
  billingInstanceType: key,
  matchedInstanceType: key,
  warning: null,
  kind: "key",
});

/** Longer billed names are not matched (no instance type comes near; matching cost grows with length). */
const MAX_NAME_LENGTH = 100;

/** The edition's spelling of a billed instance type, to match: its provider's (src/billing/providers/). */
function candidateName(context: EditionContext, provider: string, billed: string): string {
  const ids = providerTable(context, provider)?.byId;
  const listed = (name: string) => ids?.has(name) ?? false;
  const names = providerOf(provider)?.names;
  return names === undefined ? billed.trim().toLowerCase() : names.billed(billed.trim(), listed);
}

/** Whether two names read by their provider's grammar are of two families (src/billing/instanceShapes.ts). */
function crossesFamily(provider: string, billed: string, matched: string): boolean {
  // A family read whatever the size says: `c7i.metal` is no `c6i.metal`
  const a = familyOf(provider, billed);
  const b = familyOf(provider, matched);
  return a !== null && b !== null && a !== b;
}

/** The method the output names for a type estimated by its shape (its warning starts with it). */
export const BY_SHAPE = "instance-by-shape";

/**
 * One billed name matched (null: unknown to the edition): the exact id, else the closest of its
 * family, else the edition's type of its family and vCPUs (by shape: those the bill's own columns
 * give, `given`, before its name's size grammar), else none.
 */
export async function matchInstance(
  context: EditionContext,
  provider: string,
  billed: string,
  given: BilledShape | null = null,
): Promise<InstanceMatch> {
  const unmatched = {
    provider,
    billingInstanceType: billed,
    matchedInstanceType: null,
    warning: null,
    kind: "none",
  } as const;
  const table = providerTable(context, provider);
  if (!table || billed.length > MAX_NAME_LENGTH) return unmatched;
  const candidate = candidateName(context, provider, billed);
  try {
    const { row, warning } = await instanceRow(context, provider, candidate);
    if (warning === null || !crossesFamily(provider, candidate, row.id))
      return {
        provider,
        billingInstanceType: billed,
        matchedInstanceType: row.id,
        warning,
        kind: warning === null ? "exact" : "closest",
      };
  } catch (error) {
    if (!(error instanceof DomainError && error.kind === "NOT_FOUND")) throw error;
  }
  if (given !== null) {
    const byGiven = typeByBilledShape(provider, candidate, given, table.byId.values());
    if (byGiven === null) return unmatched;
    const memory = given.memoryGib === null ? "" : ` and ${given.memoryGib} GiB`;
    return {
      provider,
      billingInstanceType: billed,
      matchedInstanceType: byGiven,
      warning: `${BY_SHAPE}: ${billed} is not in the edition; estimated as ${byGiven}, its family's type of ${given.vcpus} vCPUs${memory} (the bill's)`,
      kind: "by-shape",
    };
  }
  const byShape = typeByShape(provider, candidate, table.byId.keys());
  if (byShape === null) return unmatched;
  const vcpus = shapeOf(provider, candidate)?.vcpus ?? 0;
  return {
    provider,
    billingInstanceType: billed,
    matchedInstanceType: byShape,
    warning: `${BY_SHAPE}: ${billed} is not in the edition; estimated as ${byShape}, its family's type of ${vcpus} vCPUs`,
    kind: "by-shape",
  };
}

/**
 * A managed size's key (`managed:<service>:<size>`, src/billing/registry/managedServices.ts) matched to
 * the server standing for it: the catalogue's server for a size it lists (the edition's type, else
 * its family's of those vCPUs); a size it lacks, where the service's sizes are its provider's VM
 * sizes, as that VM by the provider's grammar (by shape); else none. Its warning says which, with
 * the catalogue's figures and source: every line of it is said.
 */
export async function catalogueMatch(
  context: EditionContext,
  provider: string,
  key: string,
): Promise<InstanceMatch> {
  const unmatched = (warning: string): InstanceMatch => ({
    provider,
    billingInstanceType: key,
    matchedInstanceType: null,
    warning,
    kind: "none",
  });
  const named = catalogueKey(key);
  if (named === null) return unmatched(`${MANAGED_SIZE}: ${key} is not in the catalogue`);
  const { service, size } = named;
  const sizeName = sizeLabel(service, size);
  const row = catalogueSize(service, size);
  if (row !== null) {
    const server = await matchInstance(context, provider, row.server);
    if (server.matchedInstanceType === null)
      return unmatched(
        `${MANAGED_SIZE}: ${service.name} ${sizeName}: its server ${row.server} is not in the edition`,
      );
    return {
      provider,
      billingInstanceType: key,
      matchedInstanceType: server.matchedInstanceType,
      warning: catalogueNote(service, row, server.matchedInstanceType),
      kind: "catalogue",
    };
  }
  if (service.sizeGrammar && size !== "") {
    const vm = await matchInstance(context, provider, size);
    if (vm.matchedInstanceType !== null)
      return {
        provider,
        billingInstanceType: key,
        matchedInstanceType: vm.matchedInstanceType,
        warning: `${MANAGED_SIZE} by shape: ${service.name} ${sizeName} is not in the catalogue; its provider's VM of that name: ${vm.warning ?? `estimated as ${vm.matchedInstanceType}`}`,
        kind: "catalogue-by-shape",
      };
  }
  return unmatched(`${MANAGED_SIZE}: ${service.name} ${sizeName} is not in the catalogue`);
}
