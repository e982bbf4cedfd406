import { relative } from "node:path";
import { fileURLToPath } from "node:url";
import { parseCellPart } from "./cells.js";
import {
  type ArchetypeTable,
  COMPONENT_ARCHETYPE_FILES,
  type ComponentTableName,
  type ReferenceData,
  type TableColumns,
} from "./types.js";

/*
 * Start-up checks of a data set (docs/own-data.md): every table is checked when it is read
 * (its columns, its cells) and the loaded data set as a whole (references between tables, the
 * default archetypes of the settings). A problem stops the start with one line naming the file,
 * the row (the line in the file) and the column — never a 500 or a 404 later.
 */

/** A data set the service cannot serve; the message is one line `file:row:column: problem`. */
export class DataError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DataError";
  }
}

/** A file of a data folder as messages name it: relative to the working directory when inside it. */
export function displayPath(dir: URL, file: string): string {
  const absolute = fileURLToPath(new URL(file, dir));
  const fromHere = relative(process.cwd(), absolute);
  return fromHere.startsWith("..") ? absolute : fromHere;
}

/** A message on one line (parsers' messages may span several). */
export function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, " ").trim();
}

/** A cell's text as messages quote it (bounded). */
function quoted(text: string): string {
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
}

/** Whether every `;` part of a cell reads as a number (Python's float grammar, docs/methodology.md §3.2). */
function isNumberCell(text: string): boolean {
  return text.split(";").every((part) => typeof parseCellPart(part) === "number");
}

/** A table's header and rows against what the service reads from it (src/data/tables.ts). */
export function checkTable(
  where: string,
  header: readonly string[],
  rows: readonly {
    readonly record: Readonly<Record<string, string | undefined>>;
    readonly info: { lines: number };
  }[],
  columns: TableColumns,
): void {
  if (header.length === 0) {
    throw new DataError(
      `${where}:1: empty file, expected a header with the columns ${columns.required.join(", ")}`,
    );
  }
  for (const column of columns.required) {
    if (!header.includes(column)) throw new DataError(`${where}:1:${column}: missing column`);
  }
  if (rows.length === 0 && !columns.mayBeEmpty) throw new DataError(`${where}:2: no rows (only a header)`);
  const numbers = (columns.numbers ?? []).filter((column) => header.includes(column));
  for (const { record, info } of rows) {
    for (const column of columns.filled ?? []) {
      const cell = record[column];
      if (cell === undefined || cell.trim() === "")
        throw new DataError(`${where}:${info.lines}:${column}: empty cell`);
    }
    // A row shorter than the header (boaviztapi's test data has one) is read as pandas reads it,
    // its cells shifted left; its types are not checked (no other row can be misread for it).
    if (Object.keys(record).length < header.length) continue;
    for (const column of numbers) {
      const cell = record[column];
      if (cell !== undefined && cell.trim() !== "" && !isNumberCell(cell)) {
        throw new DataError(`${where}:${info.lines}:${column}: expected a number, found ${quoted(cell)}`);
      }
    }
  }
}

/** The archetype table holding the default of a settings kind (`default_<kind>`), or null when none does. */
function defaultsTable(
  data: ReferenceData,
  kind: string,
  userDeviceKinds: ReadonlySet<string>,
): ArchetypeTable | null {
  const { archetypes } = data;
  switch (kind) {
    case "server":
      return archetypes.server;
    case "iot_device":
      return archetypes.iotDevice;
    default:
      if (Object.hasOwn(COMPONENT_ARCHETYPE_FILES, kind)) return archetypes[kind as ComponentTableName];
      return userDeviceKinds.has(kind) ? archetypes.userTerminal : null;
  }
}

/** What the references of a data set are checked against: the edition's settings file and kinds. */
interface ReferenceContext {
  /** How messages name the settings (`config.yml`, `EDITIONS_FILE acme settings`, `BOAVIZTA_`). */
  readonly settingsSource: (key: string) => string;
  /** The terminal and peripheral kinds of the edition (their defaults are user-terminal rows). */
  readonly userDeviceKinds: ReadonlySet<string>;
  /** The criteria the edition computes (`default_criteria` must name some of them). */
  readonly criteria: ReadonlySet<string>;
  /** How messages name a data file (its folder). */
  readonly file: (file: string) => string;
  /**
   * Whether a setting was chosen for this data set (its config.yml, the environment, an
   * EDITIONS_FILE entry) rather than inherited from a base edition with other data.
   */
  readonly chosen: (key: string) => boolean;
}

/**
 * References between the tables of a loaded data set and from its settings: each default
 * archetype id names a row, the default location an electricity location, the default criteria
 * criteria of the edition; each region a provider. A default archetype inherited from a base
 * edition that the custom data set lacks (boaviztapi's 2.4.1 test data has no VR rows) is no
 * error: that kind's default requests answer 404 as the reference's on that data; it is returned
 * as a notice (logged at start-up).
 * @throws DataError naming the first problem.
 */
export function checkReferences(data: ReferenceData, context: ReferenceContext): string[] {
  const { config } = data;
  const notices: string[] = [];
  for (const [kind, id] of Object.entries(config.defaultArchetypes)) {
    if (kind === "location" || kind === "cloud_instance" || kind === "cloud_provider") continue;
    const table = defaultsTable(data, kind, context.userDeviceKinds);
    if (table && !table.byId.has(id)) {
      const problem = `${context.settingsSource(`default_${kind}`)}: archetype ${JSON.stringify(id)} not found (${kind} ids: ${sample(table.ids)})`;
      if (context.chosen(`default_${kind}`)) throw new DataError(problem);
      notices.push(`${problem}; default ${kind} requests answer 404`);
    }
  }
  if (!data.electricity.byLocation.has(config.defaultLocation)) {
    throw new DataError(
      `${context.settingsSource("default_location")}: location ${JSON.stringify(config.defaultLocation)} not in the electricity factors of factors.yml`,
    );
  }
  const provider = config.defaultArchetypes.cloud_provider;
  if (provider !== undefined) {
    const instances = data.cloudInstances.get(provider);
    if (!instances) {
      throw new DataError(
        `${context.settingsSource("default_cloud_provider")}: provider ${JSON.stringify(provider)} not in providers.csv`,
      );
    }
    const instance = config.defaultArchetypes.cloud_instance;
    if (instance !== undefined && !instances.byId.has(instance)) {
      const problem = `${context.settingsSource("default_cloud_instance")}: instance type ${JSON.stringify(instance)} not in ${context.file(`archetypes/cloud/${provider}.csv`)}`;
      if (context.chosen("default_cloud_instance")) throw new DataError(problem);
      notices.push(`${problem}; default cloud instance requests answer 404`);
    }
  }
  for (const criterion of config.defaultCriteria) {
    if (!context.criteria.has(criterion)) {
      throw new DataError(
        `${context.settingsSource("default_criteria")}: unknown criterion ${JSON.stringify(criterion)} (allowed: ${[...context.criteria].join(", ")})`,
      );
    }
  }
  const providers = new Set(data.cloudProviders.map((entry) => entry.name));
  for (const [index, region] of (data.cloudRegions ?? []).entries()) {
    if (!providers.has(region.provider)) {
      throw new DataError(
        `${context.file("archetypes/cloud/regions.csv")}:${index + 2}:provider: ${JSON.stringify(region.provider)} not in providers.csv`,
      );
    }
  }
  return notices;
}

/** A few ids of a table, for a message. */
function sample(ids: readonly string[]): string {
  const shown = ids.slice(0, 5).join(", ");
  return ids.length > 5 ? `${shown}, …` : shown;
}

/**
 * What a data set holds that answers will reveal but does not stop the start: cloud instance types
 * whose platform is not a server archetype (the edition's rule answers them: the default server in
 * 1.2.4, docs/methodology.md Appendix D; not found in 2.4.1). Both published data sets and
 * boaviztapi's test data have some, so they are logged (one line per table), not refused.
 */
export function referenceNotices(data: ReferenceData, file: (file: string) => string): string[] {
  const notices: string[] = [];
  for (const [provider, table] of data.cloudInstances) {
    const missing = new Set<string>();
    for (const instance of table.byId.values()) {
      const platform = instance.cells.platform?.default;
      if (typeof platform === "string" && !data.archetypes.server.byId.has(platform)) missing.add(platform);
    }
    if (missing.size > 0) {
      notices.push(
        `${file(`archetypes/cloud/${provider}.csv`)}: ${missing.size} platform(s) not in archetypes/server.csv (${sample([...missing])}); their instance types are answered by the edition's rule for an unknown platform`,
      );
    }
  }
  return notices;
}
