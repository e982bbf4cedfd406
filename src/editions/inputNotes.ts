import type { Description, EditionNote } from "../inputs/field.js";
import { availability, editionsWhere } from "./features.js";

/*
 * The edition-dependent sentences of the input catalogue's descriptions (src/inputs knows no
 * edition: it names the sentence, the editions' descriptions write it).
 */

/** The sentences of descriptions that depend on the editions, from the editions' descriptions. */
const EDITION_NOTES: Readonly<Record<EditionNote, () => string>> = {
  cloudRegions: () => availability("cloudRegions"),
  gpus: () => availability("gpus"),
  dieSize: () =>
    `edition ${editionsWhere((e) => e.rules.dieSizeInput === "withCoreUnits")} uses it only with coreUnits (as die size per core), ${editionsWhere((e) => e.rules.dieSizeInput === "honoured")} as is`,
  serverGpu: () =>
    `edition ${editionsWhere((e) => e.features.gpus)}; ignored by ${editionsWhere((e) => !e.features.gpus)}`,
  profileFamily: () =>
    `Edition ${editionsWhere((e) => !e.rules.profileRoute.familyOverwritesModelRange)} ignores it; ` +
    `edition ${editionsWhere((e) => e.rules.profileRoute.familyOverwritesModelRange)} writes it into the model range ` +
    "(overwriting a given one, a kept quirk).",
  profileTdp: () =>
    `Edition ${editionsWhere((e) => !e.rules.profileRoute.usesTdp)} ignores it; ` +
    `edition ${editionsWhere((e) => e.rules.profileRoute.usesTdp)} fits the profile to it ` +
    "when no workload is given (the name's TDP otherwise).",
};

/** A catalogue description as the schema and the OpenAPI description state it. */
export function describedInput(description: Description): string {
  return typeof description === "string"
    ? description
    : description.text.replace("{note}", EDITION_NOTES[description.note]());
}
