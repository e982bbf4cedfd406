/**
 * The built service as it ships, in its container's limits, for the benches of hostile rounds
 * (bench/bodiesAtOnce.ts, bench/slowSenders.ts): `npm start`'s node flags and variables,
 * deploy/deployment.yaml's environment, a memory cgroup of compose.yaml's 1 GiB and `TMPDIR` on a
 * tmpfs of its `/tmp` size (test/support/containerLimits.ts, which needs root), on a free port of
 * the loopback. Its lines at error and above are printed on stderr.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { type Contained, containerLimits } from "../test/support/containerLimits.js";
import { shippedDeployment } from "./admission.js";
import { serviceArguments, serviceVariables } from "./serviceCommand.js";

export interface ContainedService {
  readonly child: ChildProcess;
  readonly limits: Contained;
  /** The port of its `listening on` line; rejects if it exits before. */
  readonly port: Promise<number>;
  exited(): boolean;
  /** Kills it and removes its cgroup and tmpfs. */
  stop(): Promise<void>;
}

/** Starts it from `root` (a checkout whose `dist/bundle` is built), with `extra` variables. */
export function startContainedService(
  root: string | URL,
  extra: Readonly<Record<string, string>> = {},
): ContainedService {
  const limits = containerLimits("tmpfs");
  const [command, ...args] = limits.command([process.execPath, ...serviceArguments()]);
  const child = spawn(command, args, {
    cwd: root,
    env: {
      ...process.env,
      ...shippedDeployment().env,
      ...serviceVariables(),
      PORT: "0",
      HOST: "127.0.0.1",
      LOG_LEVEL: "info",
      TMPDIR: limits.tmp,
      ...extra,
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let exited = false;
  child.once("exit", () => {
    exited = true;
  });
  const port = new Promise<number>((resolve, reject) => {
    child.once("exit", () => reject(new Error("the service exited before listening")));
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on("line", (line) => {
      const listening = /listening on http:\/\/[^:]+:(\d+)/.exec(line);
      if (listening) resolve(Number(listening[1]));
      else if (/"level":(5|6)\d/.test(line)) console.error(line.slice(0, 300));
    });
  });
  return {
    child,
    limits,
    port,
    exited: () => exited,
    async stop() {
      child.kill("SIGKILL");
      if (!exited) await once(child, "exit");
      // The group is removed once the kernel has let its last process go (10 s at most)
      for (let tries = 0; ; tries++) {
        try {
          limits.release();
          return;
        } catch (error) {
          if (tries >= 500) throw error;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }
    },
  };
}
