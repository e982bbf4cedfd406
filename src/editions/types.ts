import type { DataBounds } from "../data/folder.js";
import type { SettingsSource, TableColumns } from "../data/types.js";
import type { AssetRules, EditionRules } from "../engine/index.js";
import type { RequestValidation } from "./requestValidation.js";

/** A reference table the service reads at run time, with what it is used for. */
export interface DataTable {
  /** Path relative to the edition's data directory (same as in the raw reference tree). */
  readonly file: string;
  readonly purpose: string;
  /** A CSV table's columns, checked at start-up (absent for YAML files). */
  readonly columns?: TableColumns;
}

/** Where an edition's reference data comes from and which files the service reads. */
interface EditionDataSet {
  /** Directory under `data/raw/` holding the raw reference files (provenance in its README). */
  readonly raw: string;
  /** The upstream release the raw files were published with. */
  readonly upstream: string;
  /** Files copied byte for byte to `data/<edition id>/` by `npm run data`. */
  readonly tables: readonly DataTable[];
  /** Raw files deliberately not copied, and why. */
  readonly notCopied: string;
}

/**
 * What an edition offers beyond what every edition has, stated once as data. Checked at start-up
 * against the edition's data and rules (`featureProblems`, src/editions/features.ts): an edition
 * declaring GPUs must have the GPU tables and threshold, one without must have none. The REST routes,
 * GraphQL listings and schema descriptions ("Only in editions with GPUs …") read these flags.
 * A custom edition has its base's features (its data must bear them out).
 */
export interface EditionFeatures {
  /** GPU components, server GPUs, GPU name lookups (`gpu.csv`, `gpu_specs.csv`, a GPU name threshold). */
  readonly gpus: boolean;
  /** Cloud regions as `usage.region` (`archetypes/cloud/regions.csv`). */
  readonly cloudRegions: boolean;
  /** The assembly component route (its rule `assemblyComponent` is `served`). */
  readonly assemblyComponent: boolean;
  /** VR headsets and controllers among the terminals and peripherals. */
  readonly vrDevices: boolean;
  /** Criterion `fe` (final energy) among the criteria computed. */
  readonly finalEnergy: boolean;
}

/** One edition of the methodology: everything that differs from another edition, in one place. */
export interface EditionDescription {
  /** The version of boaviztapi reproduced, as the `edition` parameter spells it. */
  readonly id: string;
  /**
   * Its GraphQL name (`V1_2_4`: enum names cannot hold dots), accepted by the `Edition` scalar as
   * well as the id; null for a custom edition, which is named by its id only.
   */
  readonly graphqlName: string | null;
  /** The built-in edition a custom edition extends (its rules, methodology, defaults); null for a built-in one. */
  readonly base: string | null;
  /** A custom edition's data folder (files present replace the base's); null for a built-in one. */
  readonly dataFolder: string | null;
  /** A custom edition's settings by their boaviztapi names (EDITIONS_FILE), applied over the base's. */
  readonly settingsOverrides?: Readonly<Record<string, unknown>>;
  /** Whether a custom edition's files give only what changes over the base's (EDITIONS_FILE `overlay`). */
  readonly dataOverlay?: boolean;
  /**
   * The bounds of the custom data read at start-up (MAX_CUSTOM_DATA_*, every custom edition
   * together: the start-up's budget is made from the first custom edition's).
   */
  readonly dataBounds?: DataBounds;
  /** The EDITIONS_FILE naming a custom edition (not an unread file when inside its data folder). */
  readonly editionsFile?: string;
  /** One line shown in the GraphQL enum and the README. */
  readonly summary: string;
  readonly dataSet: EditionDataSet;
  readonly settings: SettingsSource;
  /** What it offers beyond every edition's core (checked against its data and rules at start-up). */
  readonly features: EditionFeatures;
  /** The methodology rules that differ, read by the engine. */
  readonly rules: EditionRules;
  /** How the v1 routes validate bodies and query values (the reference's pydantic generation). */
  readonly requestValidation: RequestValidation;
}

/**
 * The generative-AI edition: the release of EcoLogits whose data and figures the generative-AI
 * kind reads (docs/methodology.md, "Generative AI"), named apart from Boavizta's editions, which do
 * not evaluate AI usage. Its tables are written from the package (`npm run data:ecologits`).
 */
export interface GenerativeAiEditionDescription {
  /** The folder of its tables under data/ and the name answers give it (`ecologits-0.11.3`). */
  readonly id: string;
  /** One line shown in the schema and the README. */
  readonly summary: string;
  readonly dataSet: {
    /** The release the tables are converted from, with the hash it was checked at. */
    readonly upstream: string;
    readonly tables: readonly DataTable[];
  };
  /** What an evaluation reads: the version answers name, the criteria, their default and rounding. */
  readonly rules: AssetRules;
}
