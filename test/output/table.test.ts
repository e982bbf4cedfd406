import { readFileSync } from "node:fs";
import { PassThrough, Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { csvCell, csvLine } from "../../src/output/csv.js";
import { reportHtml, reportRows } from "../../src/output/report.js";
import { OutputError, textSink } from "../../src/output/sink.js";
import {
  type AssessedRow,
  addTo,
  createGroups,
  emptySums,
  groupsPath,
  header,
  rowCells,
  type TableLayout,
} from "../../src/output/table.js";
import { withoutControls } from "../../src/output/text.js";

const layout: TableLayout = {
  inputColumns: ["team", "kind"],
  criteria: [{ criterion: "gwp", unit: "kgCO2eq" }],
  ranges: true,
};

function row(line: number, team: string, value: number | null, warnings: string[] = []): AssessedRow {
  return {
    line,
    cells: [team, "laptop"],
    impacts:
      value === null
        ? null
        : {
            gwp: {
              embedded: { value, min: value / 2, max: value * 2 },
              use: { value: 0.1, min: 0.1, max: 0.1 },
            },
          },
    ...(value === null ? {} : { energyKwh: 1 + value }),
    warnings,
    status: value === null ? "bad row: 404 nope" : "evaluated",
  };
}

describe("the analysis table", () => {
  it("keeps the input columns, then the energy, impacts named with their unit and bound, status, warnings", () => {
    expect(header(layout)).toEqual([
      "team",
      "kind",
      "energy_kwh",
      "gwp_embedded_kgco2eq",
      "gwp_embedded_kgco2eq_min",
      "gwp_embedded_kgco2eq_max",
      "gwp_use_kgco2eq",
      "gwp_use_kgco2eq_min",
      "gwp_use_kgco2eq_max",
      "status",
      "warnings",
    ]);
    expect(rowCells(layout, row(2, "a", 0.1 + 0.2, ["w1", "w2"]))).toEqual([
      "a",
      "laptop",
      "1.3",
      "0.3",
      "0.15",
      "0.6",
      "0.1",
      "0.1",
      "0.1",
      "evaluated",
      "w1; w2",
    ]);
    expect(rowCells(layout, row(3, "b", null))).toEqual([
      "b",
      "laptop",
      "",
      "",
      "",
      "",
      "",
      "",
      "",
      "bad row: 404 nope",
      "",
    ]);
  });

  it("sums rows and groups in order of first appearance, counting failed and warned rows", () => {
    const totals = emptySums();
    const groups = createGroups(layout, ["team"]);
    for (const each of [row(2, "b", 1), row(3, "a", 2, ["w"]), row(4, "b", null), row(5, "b", 4)]) {
      addTo(totals, each);
      groups.add(each);
    }
    expect(totals).toMatchObject({ rows: 4, failed: 1, warned: 1, energyKwh: 10 });
    expect(totals.impacts.gwp.embedded).toEqual({ value: 7, min: 3.5, max: 14 });
    expect(
      groups
        .list()
        .map((group) => [
          group.values,
          group.sums.rows,
          group.sums.impacts.gwp.embedded?.value,
          group.sums.energyKwh,
        ]),
    ).toEqual([
      [["b"], 3, 5, 7],
      [["a"], 1, 2, 3],
    ]);
  });
});

describe("text written for a reader", () => {
  it("shows control characters instead of sending them to a terminal", () => {
    expect(withoutControls("a\u001b[31mb\u0007\u009b")).toBe("a\\x1b[31mb\\x07\\x9b");
    expect(withoutControls("plain é ✓")).toBe("plain é ✓");
  });

  it("quotes CSV cells that need it, line breaks kept inside quotes", () => {
    expect(csvCell('say "hi", then\r\ngo')).toBe('"say ""hi"", then\ngo"');
    expect(csvCell("\u001b")).toBe("\\x1b");
    expect(csvLine(["a", "b,c"])).toBe('a,"b,c"\n');
  });

  it("writes a text cell a spreadsheet would run as a formula as text, numbers as they are", () => {
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe('"\'=HYPERLINK(""http://x"",""y"")"');
    expect(csvCell("+1+1")).toBe("'+1+1");
    expect(csvCell("@SUM(1+1)")).toBe("'@SUM(1+1)");
    expect(csvCell("=cmd|' /C calc'!A0")).toBe("'=cmd|' /C calc'!A0");
    expect(csvCell("-")).toBe("'-");
    expect(csvCell("\tx")).toBe("'\\x09x");
    expect(csvCell("\rx")).toBe('"\'\nx"');
    for (const number of ["-2.5", "+3", "-1e-7", "-.5", "12", "0.25"]) expect(csvCell(number)).toBe(number);
    expect(csvCell("a=b")).toBe("a=b");
  });
});

describe("the report's rows", () => {
  it("keeps the ten largest rows, largest first, and the failed and warned ones", () => {
    const rows = reportRows("gwp", (each) => `line ${each.line}`);
    for (let line = 2; line < 40; line++)
      rows.add(row(line, "a", (line * 37) % 50, line % 9 === 0 ? ["w"] : []));
    rows.add(row(40, "a", null));
    const { contributors, failed, warned } = rows.result();
    const totals = contributors.map((each) => (each.impacts?.gwp.embedded?.value ?? 0) + 0.1);
    expect(totals).toHaveLength(10);
    expect([...totals].sort((a, b) => b - a)).toEqual(totals);
    expect(failed.map((each) => each.label)).toEqual(["line 40"]);
    expect(warned.map((each) => each.label)).toEqual(["line 9", "line 18", "line 27", "line 36"]);
  });

  it("is one file whose data cannot close its script element", () => {
    const html = reportHtml({
      title: "</script><b>",
      subtitle: "",
      criteria: layout.criteria,
      totals: emptySums(),
      groupColumns: [],
      groups: [],
      contributors: [{ line: 2, label: "</script><img src=x>", impacts: null, note: "" }],
      failed: [],
      warned: [],
      interrupted: false,
    });
    expect(html).not.toContain("</script><img");
    expect(html).toContain("&lt;/script&gt;&lt;b&gt;");
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=/);
  });
});

describe("the output sink", () => {
  it("turns a destination's failure into one OutputError", async () => {
    const broken = new Writable({
      write(_chunk, _encoding, done) {
        done(Object.assign(new Error("write EPIPE"), { code: "EPIPE" }));
      },
    });
    const sink = textSink(broken);
    await expect(async () => {
      await sink.write("a\n");
      await sink.write("b\n");
    }).rejects.toThrow(new OutputError("EPIPE", "the output was closed by its reader (EPIPE)"));
    const fine = new PassThrough();
    await textSink(fine).write("ok");
    expect(fine.read().toString()).toBe("ok");
  });
});

describe("the groups file", () => {
  it("is named as the README and the docs say, for inventories and billing exports", () => {
    const said = ["README.md", "docs/inventory.md", "docs/billing.md"].flatMap((page) => [
      ...readFileSync(page, "utf8").matchAll(/`([\w.-]+)` → `([\w.-]+\.groups\.\w+)`/g),
    ]);
    expect(said.length).toBeGreaterThanOrEqual(2);
    for (const [, output, groups] of said) {
      expect(groupsPath(output, groups.slice(groups.lastIndexOf(".") + 1))).toBe(groups);
    }
    expect(groupsPath("out/lines.parquet", "parquet")).toBe("out/lines.groups.parquet");
    expect(groupsPath("impacts", "csv")).toBe("impacts.groups.csv");
  });
});
