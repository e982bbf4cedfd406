/** The project's source files, for the tests that read `src/` as text (architecture, wording). */
import { readdirSync } from "node:fs";
import { join } from "node:path";

/** Every file under `dir` (recursively) whose name ends with one of `extensions`. */
export function sourceFiles(dir: string, extensions: readonly string[] = [".ts"]): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path, extensions);
    return extensions.some((extension) => entry.name.endsWith(extension)) ? [path] : [];
  });
}
