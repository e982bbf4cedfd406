import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { KEPT_FOLDER, keptFolderOf, keptResult } from "./keptResults.js";

const CODE = [new URL(import.meta.url)];

/** The results this file kept (inputs of its own, never asked again): removed after it. */
const kept: string[] = [];
afterAll(() => {
  for (const folder of kept) rmSync(folder, { recursive: true, force: true });
});

/** Inputs of this file's own, their result removed after it. */
function ownInputs(...more: string[]): string[] {
  const inputs = ["keptResults.test.ts", randomUUID(), ...more];
  kept.push(keptFolderOf(inputs, CODE));
  return inputs;
}

/** A computation that writes `text` and counts its runs. */
function counted(text: string) {
  const runs = { count: 0 };
  const compute = async (folder: string) => {
    runs.count += 1;
    await new Promise<void>((resolve) => setImmediate(resolve));
    writeFileSync(join(folder, "result.txt"), text);
  };
  return { runs, compute };
}

describe("a result kept for the files that compute it the same way", () => {
  it("is computed once for two callers at once, and again for other inputs", async () => {
    const inputs = ownInputs();
    const { runs, compute } = counted("first");
    const [a, b] = await Promise.all([keptResult(inputs, CODE, compute), keptResult(inputs, CODE, compute)]);
    expect(runs.count).toBe(1);
    expect(a).toBe(b);
    expect(readFileSync(join(a, "result.txt"), "utf8")).toBe("first");
    expect(existsSync(`${a}.lock`)).toBe(false);
    // Asked again: kept, not computed
    expect(await keptResult(inputs, CODE, compute)).toBe(a);
    expect(runs.count).toBe(1);
    // Other inputs: another result
    const other = await keptResult([...inputs, "other"], CODE, compute);
    kept.push(other);
    expect(other).not.toBe(a);
    expect(runs.count).toBe(2);
  });

  it("keeps nothing of a computation that fails, and computes it again when asked again", async () => {
    const inputs = ownInputs();
    await expect(
      keptResult(inputs, CODE, async () => {
        throw new Error("the computation failed");
      }),
    ).rejects.toThrow("the computation failed");
    const folder = keptFolderOf(inputs, CODE);
    expect(existsSync(folder)).toBe(false);
    expect(existsSync(`${folder}.lock`)).toBe(false);
    const { runs, compute } = counted("again");
    expect(readFileSync(join(await keptResult(inputs, CODE, compute), "result.txt"), "utf8")).toBe("again");
    expect(runs.count).toBe(1);
  });

  it("takes over the lock of a process that ended before its result was kept", async () => {
    const inputs = ownInputs();
    const folder = keptFolderOf(inputs, CODE);
    const ended = spawnSync(process.execPath, ["-e", ""]).pid;
    mkdirSync(KEPT_FOLDER, { recursive: true });
    writeFileSync(`${folder}.lock`, String(ended));
    const { runs, compute } = counted("taken over");
    expect(readFileSync(join(await keptResult(inputs, CODE, compute), "result.txt"), "utf8")).toBe(
      "taken over",
    );
    expect(runs.count).toBe(1);
  });
});
