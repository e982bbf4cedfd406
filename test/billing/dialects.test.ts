/**
 * The scripts of `impact-service sql` for the engines the project does not run: Spark SQL's and
 * Trino's parsed by those engines' own ANTLR grammars (dt-sql-parser), BigQuery's read against its
 * documented lexical rules and functions; and the renderer's rewrites, one by one.
 */
import { SparkSQL, TrinoSQL } from "dt-sql-parser";
import { describe, expect, it } from "vitest";
import { BILLING_FORMAT_NAMES, BILLING_FORMATS } from "../../src/billing/formats/knownFormats.js";
import { DIALECTS, type EngineName } from "../../src/billing/portable/dialects.js";
import { flatExportHeader } from "../../src/billing/portable/header.js";
import { capturingGroups, PortabilityError, rendered, tokens } from "../../src/billing/portable/render.js";
import { billingScript } from "../../src/billing/portable/script.js";

const IMPACTS = [
  "gwp_embedded_kgco2eq",
  "gwp_use_kgco2eq",
  "gwp_use_kgco2eq_min",
  "gwp_use_kgco2eq_max",
  "pe_use_mj",
];

/** A header of the format's own columns, one the command renames (`status`) and the type hint's. */
function headerOf(format: (typeof BILLING_FORMAT_NAMES)[number]): string[] {
  const { required, optional } = BILLING_FORMATS[format];
  return [...required.map((names) => names[0]), ...optional.slice(0, 3), "status"];
}

/** Each engine's scripts, generated once for the file (several tests read them). */
const generated = new Map<EngineName, readonly [string, string][]>();

/** Every script an engine gets: each format, lines with and without a series, and the keys. */
function scripts(engine: EngineName): readonly [string, string][] {
  const known = generated.get(engine);
  if (known !== undefined) return known;
  const made = generatedScripts(engine);
  generated.set(engine, made);
  return made;
}

function generatedScripts(engine: EngineName): [string, string][] {
  return BILLING_FORMAT_NAMES.flatMap((format) =>
    [
      ["lines", false, false],
      ["lines with a series", true, false],
      ["keys", false, true],
    ].map(([what, grid, keys]): [string, string] => [
      `${format} ${what}`,
      billingScript(
        {
          dialect: DIALECTS[engine],
          format: BILLING_FORMATS[format],
          header: flatExportHeader(headerOf(format)),
          impactColumns: IMPACTS,
          grid: grid === true,
          typeHintColumn: format === "focus" ? headerOf(format)[0] : null,
        },
        keys === true,
      ),
    ]),
  );
}

/** The arguments of the call whose name starts at `at` (commas at its parentheses' first depth). */
function topLevelArguments(code: string, at: number): number {
  let depth = 0;
  let commas = 0;
  for (let index = code.indexOf("(", at); index < code.length; index++) {
    if (code[index] === "(") depth++;
    else if (code[index] === ")" && --depth === 0) return commas + 1;
    else if (code[index] === "," && depth === 1) commas++;
  }
  throw new Error("a call not closed");
}

const r = (sql: string, engine: EngineName, tables?: ReadonlyMap<string, string>) =>
  rendered(sql, { dialect: DIALECTS[engine], tables });

describe("a token rendered for an engine", () => {
  it("reads a decimal literal as a double where it would be a DECIMAL (Trino >= 428, Spark)", () => {
    expect(r("SELECT 1.0 / 60, 3600, 1e-9", "trino")).toBe("SELECT 1.0E0 / 60, 3600, 1e-9");
    expect(r("SELECT 1.0 / 60", "spark")).toBe("SELECT 1.0E0 / 60");
    expect(r("SELECT 1.0 / 60", "duckdb")).toBe("SELECT 1.0 / 60");
  });

  it("quotes a text as each engine reads it (Spark reads 'a''b' as ab; BigQuery refuses it)", () => {
    const sql = "SELECT 'the edition''s factor', 'a\\b'";
    expect(r(sql, "duckdb")).toBe(sql);
    expect(r(sql, "trino")).toBe(sql);
    expect(r(sql, "spark")).toBe("SELECT 'the edition\\'s factor', 'a\\\\b'");
    expect(r(sql, "bigquery")).toBe("SELECT 'the edition\\'s factor', 'a\\\\b'");
  });

  it("names the types and the safe cast of each engine", () => {
    const sql = "SELECT CAST(a AS VARCHAR), TRY_CAST(b AS DOUBLE), CAST(c AS INTEGER) AS varchar";
    expect(r(sql, "spark")).toBe(
      "SELECT CAST(a AS STRING), TRY_CAST(b AS DOUBLE), CAST(c AS INT) AS varchar",
    );
    expect(r(sql, "bigquery")).toBe(
      "SELECT CAST(a AS STRING), SAFE_CAST(b AS FLOAT64), CAST(c AS INT64) AS varchar",
    );
    expect(r(sql, "trino")).toBe(sql);
  });

  it("drops REGEXP_EXTRACT's group for BigQuery, which reads a position there", () => {
    const sql = "SELECT REGEXP_EXTRACT(LOWER(x), ':([^:]+)$', 1)";
    expect(r(sql, "bigquery")).toBe("SELECT REGEXP_EXTRACT(LOWER(x), ':([^:]+)$')");
    expect(r(sql, "spark")).toBe(sql);
  });

  it("refuses what one engine would read otherwise", () => {
    const refused = [
      "SELECT REGEXP_EXTRACT(x, '(a)(b)', 1)",
      "SELECT REGEXP_EXTRACT(x, '(a)', 2)",
      "SELECT REGEXP_EXTRACT(x, y, 1)",
      "SELECT x::DOUBLE",
      "SELECT 7 // 2",
      "SELECT l[1]",
      "SELECT fsum(x) FROM t",
      "SELECT * EXCLUDE (a) FROM t",
      "SELECT a FROM t GROUP BY ALL",
      "SELECT 'open",
    ];
    for (const sql of refused) expect(() => r(sql, "trino"), sql).toThrow(PortabilityError);
  });

  it("counts capturing groups outside classes and (?:…)", () => {
    expect(capturingGroups("((?:db|ml)[.])?[(]x\\(")).toBe(1);
    expect(capturingGroups("[]()](a)")).toBe(1);
  });

  it("names a table read after FROM or JOIN as the script does, and nothing else", () => {
    const tables = new Map([["billing_keys", "billing_grid_keys"]]);
    expect(
      r("SELECT billing_keys.x FROM billing_keys k LEFT JOIN billing_keys c ON 1 = 1", "duckdb", tables),
    ).toBe("SELECT billing_keys.x FROM billing_grid_keys k LEFT JOIN billing_grid_keys c ON 1 = 1");
  });
});

/**
 * A bound against a hang: the grammars' first scripts build the parsers' prediction tables (Spark's
 * first two about 10 s of CPU each, the later ones under 1 s), past vitest's 60 s on a loaded machine.
 */
const GRAMMAR = { timeout: 180_000 };

describe("the scripts of each engine", () => {
  it.each(scripts("spark"))("Spark SQL's grammar parses the %s script", GRAMMAR, (_, script) => {
    expect(new SparkSQL().validate(script)).toEqual([]);
  });

  it.each(scripts("trino"))("Trino's grammar parses the %s script", GRAMMAR, (_, script) => {
    expect(new TrinoSQL().validate(script)).toEqual([]);
  });

  it.each(["trino", "spark", "bigquery"] as const)(
    "%s: no decimal literal, so no DECIMAL division",
    (engine) => {
      for (const [what, script] of scripts(engine)) {
        const numbers = tokens(engine === "trino" ? script : script.replaceAll("\\'", ""))
          .filter((token) => token.kind === "number")
          .map((token) => token.text);
        expect(numbers.length, what).toBeGreaterThan(10);
        expect(
          numbers.filter((number) => /^\d+\.\d+$/.test(number)),
          what,
        ).toEqual([]);
        expect(numbers, what).toContain("1.0E0");
      }
    },
  );

  it("BigQuery: texts by its lexical rules, its types, SAFE_CAST, REGEXP_EXTRACT of two arguments", () => {
    // BigQuery's quoted texts: backslash escapes, no doubled quote; names in backticks.
    const text = /'(?:[^'\\\n]|\\.)*'/y;
    for (const [what, script] of scripts("bigquery")) {
      const code = script.replace(/^--[^\n]*\n/gm, "");
      let texts = 0;
      for (let at = 0; at < code.length; at++) {
        if (code[at] === "-" && code[at + 1] === "-") at = code.indexOf("\n", at);
        if (code[at] !== "'") continue;
        text.lastIndex = at;
        const match = text.exec(code);
        expect(match, `${what}: a text at ${code.slice(at, at + 40)}`).not.toBeNull();
        at += (match as RegExpExecArray)[0].length - 1;
        // A quote right after a text would be `''` inside it: BigQuery's syntax error.
        expect(code[at + 1], `${what}: ${code.slice(at - 30, at + 2)}`).not.toBe("'");
        texts++;
      }
      expect(texts, what).toBeGreaterThan(20);
      const words = code.replace(/'(?:[^'\\]|\\.)*'/g, "''");
      expect(words, what).not.toMatch(/\bTRY_CAST\b|\bAS (VARCHAR|DOUBLE|INTEGER|BIGINT|BOOLEAN)\)|"/);
      const calls = [...words.matchAll(/REGEXP_EXTRACT\(/g)].map((call) =>
        topLevelArguments(words, call.index),
      );
      expect(calls.length, what).toBeGreaterThan(0);
      for (const count of calls) expect(count, what).toBe(2);
    }
    expect(DIALECTS.bigquery.types).toEqual({
      VARCHAR: "STRING",
      DOUBLE: "FLOAT64",
      INTEGER: "INT64",
      BIGINT: "INT64",
      BOOLEAN: "BOOL",
    });
    expect(DIALECTS.bigquery.quoted("a`b")).toBe("`a\\`b`");
  });

  it("stores billing_result last, with the command's names, ordered by line_id where line_id is a number", () => {
    const stored = { duckdb: "VIEW", spark: "TABLE", trino: "TABLE", bigquery: "TABLE" };
    for (const engine of ["duckdb", "spark", "trino", "bigquery"] as const) {
      const script = scripts(engine)[0][1];
      const last = script.slice(script.lastIndexOf("CREATE "));
      expect(last).toMatch(new RegExp(`^CREATE (OR REPLACE )?${stored[engine]} billing_result`));
      // Trino's and BigQuery's line_id is each line's identity: a table there has no order
      const { order, quoted } = DIALECTS[engine];
      if (order === "sorted") expect(last).toMatch(/ORDER BY line_id;\n$/);
      // DuckDB sorts the computed columns alone, then sets the export's lines beside them
      else if (order === "positional")
        expect(last).toMatch(
          /POSITIONAL JOIN \(\n.*\n {2}FROM billing_output\n {2}ORDER BY line_id\n\) d;\n$/,
        );
      else expect(last).not.toContain("ORDER BY");
      const first = quoted(headerOf("focus")[0]);
      expect(last).toContain(`line_id,\n  ${order === "positional" ? `e.${first}` : first}`);
      expect(last).toContain(DIALECTS[engine].quoted("input_status"));
    }
  });
});
