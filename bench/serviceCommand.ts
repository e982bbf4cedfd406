import { readFileSync } from "node:fs";

/**
 * Node's arguments for the built service as `npm start` runs it (package.json's `start`: node's
 * flags, then the bundle), so that the bench measures the process that ships, flags included.
 */
export function serviceArguments(): string[] {
  const packageJson = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
  const command = /\bexec node (.+)$/.exec(packageJson.scripts.start as string);
  if (command === null) throw new Error("package.json's start script no longer ends with `exec node …`");
  return command[1].split(" ").filter((part) => part !== "");
}

/** The old generation's bound that `npm start` (and the image) gives node, in MB. */
export function shippedHeapMb(): number {
  const flag = serviceArguments().find((part) => part.startsWith("--max-old-space-size="));
  return Number(flag?.split("=")[1]);
}

/**
 * The variables `npm start` sets for node (the `NAME=value` words before `exec node`): NODE_ENV,
 * and glibc's malloc settings that bound the native memory (docs/operations.md, "Native memory").
 */
export function serviceVariables(): Record<string, string> {
  const packageJson = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
  const command = /(?:^|&&)\s*((?:[A-Z_][A-Z0-9_]*=\S*\s+)*)exec node /.exec(
    packageJson.scripts.start as string,
  );
  if (command === null) throw new Error("package.json's start script no longer runs `… exec node …`");
  const words = command[1].split(" ").filter((word) => word !== "");
  return Object.fromEntries(
    words.map((word) => [word.slice(0, word.indexOf("=")), word.slice(word.indexOf("=") + 1)]),
  );
}

/** The environment `npm start` gives the service (its variables), on the loopback at `port`, logging warnings up. */
export function serviceEnvironment(port: number): NodeJS.ProcessEnv {
  return { ...process.env, ...serviceVariables(), PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "warn" };
}
