/**
 * Reading a V8 `.cpuprofile` of the built service: where each sampled frame's code lives (a src/
 * file of the bundle or of one of its chunks, a package, a node: module, or V8's own categories).
 * Shared by bench/profile.ts (self time) and bench/stages.ts (time by stage of a request).
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";

export interface ProfileNode {
  readonly id: number;
  readonly callFrame: {
    readonly functionName: string;
    readonly url: string;
    readonly lineNumber: number;
  };
  readonly children?: readonly number[];
}

export interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly startTime: number;
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** The profile written in `directory` (one process, one file). */
export function readProfile(directory: string): CpuProfile {
  const file = readdirSync(directory).find((name) => name.endsWith(".cpuprofile"));
  if (!file) throw new Error("no profile written");
  return JSON.parse(readFileSync(join(directory, file), "utf8")) as CpuProfile;
}

type Markers = readonly { line: number; file: string }[];

/** The `// src/…` module markers of one bundle file, by line (0-based), ascending. */
function moduleMarkers(text: string): Markers {
  const markers: { line: number; file: string }[] = [];
  text.split("\n").forEach((line, index) => {
    const match = /^\/\/ (src\/\S+)$/.exec(line);
    if (match) markers.push({ line: index, file: match[1] });
  });
  return markers;
}

/**
 * Names the place of a frame: the src/ module for the bundle's files (the entry and its chunks,
 * every `.mjs` beside `bundle`), the package for node_modules, the node: module, or V8's category.
 */
export function framePlaces(bundle: string): (frame: ProfileNode["callFrame"]) => string {
  const byUrl = new Map<string, Markers>();
  const folder = dirname(bundle);
  for (const name of readdirSync(folder)) {
    if (name.endsWith(".mjs"))
      byUrl.set(`file://${join(folder, name)}`, moduleMarkers(readFileSync(join(folder, name), "utf8")));
  }
  return (frame) => {
    if (frame.url === "") return frame.functionName; // (garbage collector), (program), natives
    const markers = byUrl.get(frame.url);
    if (markers) {
      let found = frame.url.replace(/^file:\/\//, "");
      for (const marker of markers) {
        if (marker.line > frame.lineNumber) break;
        found = marker.file;
      }
      return found;
    }
    const packageMatch = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(frame.url);
    if (packageMatch) return packageMatch[1];
    return frame.url.replace(/^file:\/\//, "");
  };
}

/** Each sample of the window [from, to] (µs since the profile's start), idle excluded. */
export function forEachSample(
  profile: CpuProfile,
  from: number,
  to: number,
  visit: (node: ProfileNode, micros: number) => void,
): void {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  let elapsed = 0;
  profile.samples.forEach((id, index) => {
    const delta = profile.timeDeltas[index];
    elapsed += delta;
    if (elapsed < from || elapsed > to) return;
    const node = nodes.get(id) as ProfileNode;
    if (node.callFrame.functionName === "(idle)") return;
    visit(node, delta);
  });
}
