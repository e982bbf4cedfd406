import type { ArchetypeCell, CellValue } from "./types.js";

/** Python's `float()` grammar (docs/methodology.md §3.2): sign, decimals, exponent, blanks, nan/inf spellings. */
const PYTHON_FLOAT = /^[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|inf|infinity|nan)$/i;

function parsePythonFloat(text: string): number | undefined {
  const trimmed = text.trim();
  if (!PYTHON_FLOAT.test(trimmed)) return undefined;
  const lower = trimmed.toLowerCase().replace(/^\+/, "");
  if (lower.endsWith("nan")) return Number.NaN;
  if (lower === "inf" || lower === "infinity") return Number.POSITIVE_INFINITY;
  if (lower === "-inf" || lower === "-infinity") return Number.NEGATIVE_INFINITY;
  return Number(trimmed);
}

/** A `{'a': 171.2, …}` literal mapping (the CPU archetype's consumption-profile parameters). */
function parseLiteralMapping(text: string): { [key: string]: number } | undefined {
  if (!/[{[].*[}\]]/.test(text)) return undefined;
  try {
    const parsed: unknown = JSON.parse(text.replace(/'/g, '"'));
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) {
      const entries = Object.entries(parsed as Record<string, unknown>);
      if (entries.every(([, v]) => typeof v === "number"))
        return Object.fromEntries(entries) as { [key: string]: number };
    }
  } catch {
    return undefined;
  }
  return undefined;
}

export function parseCellPart(text: string): CellValue {
  return parsePythonFloat(text) ?? parseLiteralMapping(text) ?? text;
}

function lesser(a: CellValue, b: CellValue): CellValue {
  return (typeof a === "number" && typeof b === "number" ? a <= b : String(a) <= String(b)) ? a : b;
}

/**
 * docs/methodology.md §3.2: `a;b;c` is {default, min, max} taken as is (never re-ordered — Appendix D.7),
 * `a;b` is {default a, min(a,b), max(a,b)}, anything else is {default}; empty is {}.
 */
export function parseCell(raw: string | undefined): ArchetypeCell {
  if (raw === undefined || raw === "") return {};
  const parts = raw.split(";");
  if (parts.length === 3) {
    return { default: parseCellPart(parts[0]), min: parseCellPart(parts[1]), max: parseCellPart(parts[2]) };
  }
  if (parts.length === 2) {
    const a = parseCellPart(parts[0]);
    const b = parseCellPart(parts[1]);
    const low = lesser(a, b);
    return { default: a, min: low, max: low === a ? b : a };
  }
  return { default: parseCellPart(raw) };
}

/** The nested form of an archetype (`CPU.core_units` → `{CPU: {core_units: …}}`), as §3.2 lists it. */
export function nestedArchetype(cells: Readonly<Record<string, ArchetypeCell>>): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [header, cell] of Object.entries(cells)) {
    const path = header.split(".");
    let node = root;
    for (const key of path.slice(0, -1)) {
      if (typeof node[key] !== "object" || node[key] === null) node[key] = {};
      node = node[key] as Record<string, unknown>;
    }
    node[path[path.length - 1]] = { ...cell };
  }
  return root;
}
