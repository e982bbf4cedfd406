/*
 * The three shapes of a grid series file, recognised by its header: which column holds the zone,
 * the interval's start and the intensity, and which rows are the series (Ember's files hold many
 * variables per country and month).
 */

export type GridSeriesShape = "electricity-maps" | "ember" | "plain";

export interface ShapeColumns {
  readonly shape: GridSeriesShape;
  readonly zone: string;
  readonly start: string;
  readonly intensity: string;
  /** Columns and the value a row of the series holds in each (Ember: the CO2 intensity rows). */
  readonly rowsWhere: readonly (readonly [string, string])[];
}

/** A header name as compared: lower case, subscript two as a digit, blanks single. */
function key(name: string): string {
  return name.trim().toLowerCase().replaceAll("₂", "2").replace(/\s+/g, " ");
}

/**
 * Electricity Maps' life-cycle intensity column, as its data portal's exports spelled it over the
 * years (`Carbon Intensity gCO₂eq/kWh (LCA)` in 2021–2023 files, `Carbon intensity gCO₂eq/kWh
 * (Life cycle)` from 2024): the series is the life-cycle one, as the editions' factors are.
 */
const ELECTRICITY_MAPS_LIFE_CYCLE = [
  "carbon intensity gco2eq/kwh (lca)",
  "carbon intensity gco2eq/kwh (life cycle)",
  "carbon intensity gco2eq/kwh (life cycle assessment)",
];

/** What the error of an unknown header names: the three shapes. */
export const EXPECTED_SHAPES =
  "an Electricity Maps export (Datetime (UTC), Zone Id, Carbon Intensity gCO₂eq/kWh (LCA)), " +
  "Ember's monthly data (ISO 3 code, Date, Variable 'CO2 intensity', Unit, Value) " +
  "or zone,start,gco2_per_kwh";

/** The shape of a header, or null when it is none of the three. */
export function recognisedShape(header: readonly string[]): ShapeColumns | null {
  const named = new Map(header.map((name) => [key(name), name]));
  const column = (...names: string[]) =>
    names.map((name) => named.get(name)).find((name) => name !== undefined);
  const emTime = column("datetime (utc)");
  const emZone = column("zone id");
  const emIntensity = column(...ELECTRICITY_MAPS_LIFE_CYCLE);
  if (emTime && emZone && emIntensity)
    return { shape: "electricity-maps", zone: emZone, start: emTime, intensity: emIntensity, rowsWhere: [] };
  const emberZone = column("iso 3 code");
  const emberDate = column("date");
  if (emberZone && emberDate) {
    // The long format: one row per variable (Ember's "monthly electricity data", long format).
    const variable = column("variable");
    const unit = column("unit");
    const value = column("value");
    if (variable && unit && value)
      return {
        shape: "ember",
        zone: emberZone,
        start: emberDate,
        intensity: value,
        rowsWhere: [
          [variable, "CO2 intensity"],
          [unit, "gCO2/kWh"],
        ],
      };
    // The wide format: one row per source, the total's intensity on the `Total generation` row.
    const source = column("electricity source");
    const intensity = column("emissions intensity (gco2e/kwh)");
    if (source && intensity)
      return {
        shape: "ember",
        zone: emberZone,
        start: emberDate,
        intensity,
        rowsWhere: [[source, "Total generation"]],
      };
  }
  const zone = column("zone");
  const start = column("start");
  const intensity = column("gco2_per_kwh");
  if (zone && start && intensity) return { shape: "plain", zone, start, intensity, rowsWhere: [] };
  return null;
}
