/**
 * The environment is read by the process's entry points only (the server's start-up and the
 * command line), each giving it to loadConfig: the app, the HTTP front and every layer below take
 * their configuration as an argument (src/config/environment.ts lists the variables).
 */
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { sourceFiles } from "../support/sources.js";

const root = fileURLToPath(new URL("../../", import.meta.url));

/** `file:line` of each line of src/ that names `process.env` outside a comment. */
function environmentReads(): string[] {
  return sourceFiles(join(root, "src")).flatMap((path) =>
    readFileSync(path, "utf8")
      .split("\n")
      .flatMap((line, index) =>
        line.includes("process.env") && !/^\s*(\*|\/\/|\/\*)/.test(line)
          ? [`${relative(root, path)}:${index + 1}`]
          : [],
      ),
  );
}

describe("the environment", () => {
  it("is read by the server's start-up and the command line only", () => {
    const files = new Set(environmentReads().map((at) => at.split(":")[0]));
    expect(files.size).toBeGreaterThan(0);
    for (const file of files) expect(file, "reads process.env").toMatch(/^src\/(app\/main\.ts|cli\/)/);
  });
});
