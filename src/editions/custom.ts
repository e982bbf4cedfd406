import { existsSync, readFileSync, statSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import { type DataBounds, DEFAULT_DATA_BOUNDS } from "../data/folder.js";
import { refusePrototypeKeys } from "../data/overlay.js";
import { DataError } from "../data/validate.js";
import type { EditionDescription } from "./types.js";

/*
 * Custom editions (docs/own-data.md): an organisation's own reference data served beside the
 * built-in editions. `EDITIONS_FILE` names a YAML file:
 *
 *   editions:
 *     - id: acme                  # lower-case letters, digits, '.', '-'; not a built-in id
 *       base: "2.4.1"             # a built-in edition: its rules, methodology and defaults
 *       data: /etc/impacts/acme   # a folder in boaviztapi's data layout; each file present
 *                                 # replaces the base's, the others are the base's
 *       overlay: true             # optional: each file present gives only the rows and
 *                                 # factors that change the base's (src/data/overlay.ts)
 *       settings:                 # optional: the base's settings by their boaviztapi names
 *         default_server: DEFAULT
 *
 * A custom edition is its base's description with another id, data folder and settings: it
 * inherits the base's rules (the engine never tests an edition's name).
 */

/** An edition id: what `?edition=` and the GraphQL `Edition` scalar accept. */
export const EDITION_ID_PATTERN = /^[a-z0-9][a-z0-9.-]{0,63}$/;

/** Upper bound of an EDITIONS_FILE (it lists editions, not data). */
const MAX_EDITIONS_FILE_BYTES = 1 << 20;

const SETTING_VALUE = z.union([z.string(), z.number(), z.array(z.string())]);

const EDITIONS_FILE = z
  .object({
    editions: z
      .array(
        z
          .object({
            id: z
              .string()
              .regex(EDITION_ID_PATTERN, "expected lower-case letters, digits, '.' or '-' (at most 64)"),
            base: z.union([z.string(), z.number()]).transform(String),
            data: z.string().min(1),
            overlay: z.boolean().optional(),
            settings: z.record(z.string(), SETTING_VALUE).optional(),
          })
          .strict(),
      )
      .max(32),
  })
  .strict();

/** An EDITIONS_FILE that cannot be used (the start stops with this one line). */
export class EditionsFileError extends Error {
  constructor(file: string, problem: string) {
    super(`EDITIONS_FILE ${file}: ${problem}`);
    this.name = "EditionsFileError";
  }
}

/**
 * The custom editions of an EDITIONS_FILE, each built on a built-in edition. Checks the file's
 * shape, the ids (unique, not a built-in one), the bases and that each data folder exists; the
 * data and the settings are checked when loaded (src/data/load.ts).
 * @throws EditionsFileError naming the file and the problem.
 */
export function readEditionsFile(
  file: string,
  builtIn: readonly EditionDescription[],
  bounds: DataBounds = DEFAULT_DATA_BOUNDS,
): EditionDescription[] {
  if (!existsSync(file)) throw new EditionsFileError(file, "no such file");
  if (!statSync(file).isFile()) throw new EditionsFileError(file, "not a regular file");
  if (statSync(file).size > MAX_EDITIONS_FILE_BYTES) {
    throw new EditionsFileError(file, `larger than ${MAX_EDITIONS_FILE_BYTES} bytes`);
  }
  let raw: unknown;
  try {
    raw = parseYaml(readFileSync(file, "utf8"));
  } catch (error) {
    throw new EditionsFileError(file, (error as Error).message.replace(/\s*\n[\s\S]*/, ""));
  }
  try {
    refusePrototypeKeys(raw, "");
  } catch (error) {
    if (!(error instanceof DataError)) throw error;
    throw new EditionsFileError(file, error.message.replace(/^:/, ""));
  }
  const parsed = EDITIONS_FILE.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new EditionsFileError(file, `${issue.path.join(".") || "(top level)"}: ${issue.message}`);
  }
  const ids = new Set(builtIn.map((edition) => edition.id));
  return parsed.data.editions.map((entry, index) => {
    const at = `editions.${index}`;
    if (ids.has(entry.id)) {
      const which = builtIn.some((edition) => edition.id === entry.id)
        ? "a built-in edition's"
        : "another edition's";
      throw new EditionsFileError(file, `${at}.id: ${JSON.stringify(entry.id)} is ${which} id`);
    }
    ids.add(entry.id);
    const base = builtIn.find((edition) => edition.id === entry.base);
    if (!base) {
      const allowed = builtIn.map((edition) => edition.id).join(", ");
      throw new EditionsFileError(
        file,
        `${at}.base: unknown edition ${JSON.stringify(entry.base)} (allowed: ${allowed})`,
      );
    }
    // A relative folder is read from the EDITIONS_FILE's own folder.
    const folder = isAbsolute(entry.data) ? entry.data : resolve(file, "..", entry.data);
    if (!existsSync(folder) || !statSync(folder).isDirectory()) {
      throw new EditionsFileError(file, `${at}.data: no such folder ${folder}`);
    }
    return customEdition(base, entry.id, folder, entry.settings ?? {}, {
      overlay: entry.overlay ?? false,
      bounds,
      editionsFile: file,
    });
  });
}

/** How a custom edition's folder is read: whole files or an overlay, within which bounds. */
interface CustomDataOptions {
  readonly overlay: boolean;
  readonly bounds: DataBounds;
  readonly editionsFile?: string;
}

/** A custom edition: the base's description with its own id, data folder and settings. */
export function customEdition(
  base: EditionDescription,
  id: string,
  dataFolder: string,
  settings: Readonly<Record<string, unknown>>,
  { overlay, bounds, editionsFile }: CustomDataOptions = { overlay: false, bounds: DEFAULT_DATA_BOUNDS },
): EditionDescription {
  return {
    ...base,
    id,
    graphqlName: null,
    base: base.id,
    dataFolder,
    summary: `Custom edition on ${base.id}: ${overlay ? "changes" : "data"} from ${dataFolder}.`,
    settingsOverrides: settings,
    dataOverlay: overlay,
    dataBounds: bounds,
    editionsFile,
  };
}
