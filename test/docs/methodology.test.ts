/**
 * docs/methodology.md is the project's reference for the rules the code implements: every
 * citation of it (`docs/methodology.md §9.1`, `docs/methodology.md Appendix D.7`) in the sources,
 * tests, scripts and documents must name a section that exists, and every numbered section keeps
 * its stable anchor (`#s9-1`, `#appendix-d-7`).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { describe, expect, it } from "vitest";

const root = new URL("../../", import.meta.url);
const methodology = readFileSync(new URL("docs/methodology.md", root), "utf8");
const anchors = [...methodology.matchAll(/<a id="([^"]+)"><\/a>/g)].map((m) => m[1]);

/** The anchor a citation points at: `§9.1` → `s9-1`, `Appendix D.7` → `appendix-d-7`. */
function anchorOf(citation: string): string {
  const section = /^§(\d+(?:\.\d+)*)$/.exec(citation);
  if (section) return `s${section[1].replaceAll(".", "-")}`;
  const appendix = /^Appendix ([A-D])(?:\.(\d+))?$/.exec(citation);
  if (appendix) return `appendix-${appendix[1].toLowerCase()}${appendix[2] ? `-${appendix[2]}` : ""}`;
  throw new Error(`not a citation: ${citation}`);
}

function filesUnder(relative: string): string[] {
  const path = new URL(relative, root);
  if (statSync(path).isFile()) return [relative];
  return readdirSync(path, { recursive: true, encoding: "utf8" })
    .map((entry) => `${relative}/${entry}`)
    .filter((file) => /\.(ts|graphql|md)$/.test(file) && statSync(new URL(file, root)).isFile());
}

const citingFiles = ["src", "test", "scripts", "bench", "docs", "data", "README.md"].flatMap(filesUnder);

/** Every `docs/methodology.md <section>` citation, with the file that makes it. */
function citations(): { file: string; citation: string }[] {
  return citingFiles.flatMap((file) =>
    [
      ...readFileSync(new URL(file, root), "utf8").matchAll(
        /docs\/methodology\.md[ ,]*(§\d+(?:\.\d+)*|Appendix [A-D](?:\.\d+)?)/g,
      ),
    ].map((m) => ({ file, citation: m[1].replace(/\.$/, "") })),
  );
}

describe("docs/methodology.md", () => {
  it("maps citations to anchors", () => {
    expect(anchorOf("§9")).toBe("s9");
    expect(anchorOf("§4.2.3")).toBe("s4-2-3");
    expect(anchorOf("Appendix D")).toBe("appendix-d");
    expect(anchorOf("Appendix D.20")).toBe("appendix-d-20");
  });

  it("has one anchor per numbered section, each unique", () => {
    expect(new Set(anchors).size).toBe(anchors.length);
    const headings = [...methodology.matchAll(/^#{2,4} (\d+(?:\.\d+)*)\.? /gm)].map((m) => `§${m[1]}`);
    expect(headings.length).toBeGreaterThan(80);
    for (const heading of headings) expect(anchors, heading).toContain(anchorOf(heading));
  });

  it("every citation in the project names an existing section", () => {
    const found = citations();
    expect(found.length).toBeGreaterThan(30);
    const broken = found.filter(({ citation }) => !anchors.includes(anchorOf(citation)));
    expect(broken).toEqual([]);
  });
});
