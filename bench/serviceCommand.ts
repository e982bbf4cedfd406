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

/** The environment `npm start` gives the service (NODE_ENV=production), on the loopback at `port`, logging warnings up. */
export function serviceEnvironment(port: number): NodeJS.ProcessEnv {
  return { ...process.env, NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "warn" };
}
