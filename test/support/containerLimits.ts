/**
 * The limits the service ships with in its container, applied without a container engine (CI has
 * none; docs/operations.md, "Container and cluster"): compose.yaml's memory limit as a memory cgroup
 * of its own, below the test's (cgroup v2 where its memory controller is delegated, else v1's
 * memory hierarchy), and its `/tmp` tmpfs as a tmpfs mounted here, or a folder on disk for the
 * Deployment's `emptyDir`. Root is needed (to make a cgroup and mount a file system): a fresh
 * machine of the project's kind runs its tests as root. A process is put in the cgroup by the
 * command `command` builds (a shell writes its own id into the cgroup, then becomes the program),
 * so the service and every child it starts are counted in it, tmpfs pages they write included.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse as parseYaml } from "yaml";

const ROOT = new URL("../../", import.meta.url);

/** compose.yaml's memory limit and `/tmp` tmpfs size, in bytes (the one description of them). */
export function composeLimits(): { readonly memoryBytes: number; readonly tmpBytes: number } {
  const compose = parseYaml(readFileSync(new URL("compose.yaml", ROOT), "utf8"));
  const [service] = Object.values(compose.services) as {
    tmpfs: string[];
    deploy: { resources: { limits: { memory: string } } };
  }[];
  const bytes = (text: string) => {
    const match = /^(\d+)([mg])$/i.exec(text);
    if (!match) throw new Error(`compose.yaml: a size not understood: ${text}`);
    return Number(match[1]) * 1024 ** (match[2].toLowerCase() === "g" ? 3 : 2);
  };
  const tmp = service.tmpfs.find((entry) => entry.split(":")[0] === "/tmp") ?? "";
  const size = /size=(\d+[mg])/i.exec(tmp)?.[1];
  if (size === undefined) throw new Error("compose.yaml: no size on the /tmp tmpfs");
  return { memoryBytes: bytes(service.deploy.resources.limits.memory), tmpBytes: bytes(size) };
}

/** A memory cgroup: its folder, and how its files are named in this version. */
interface MemoryGroup {
  readonly folder: string;
  readonly version: 1 | 2;
}

/** The memory cgroup this process is in, as a folder a child group can be made in. */
function ownMemoryGroup(): MemoryGroup {
  const lines = readFileSync("/proc/self/cgroup", "utf8").trim().split("\n");
  const unified = lines.find((line) => line.startsWith("0::"))?.slice(3);
  for (const mount of ["/sys/fs/cgroup", "/sys/fs/cgroup/unified"]) {
    const folder = join(mount, unified ?? "/");
    const controllers = join(mount, "cgroup.controllers");
    if (
      unified !== undefined &&
      existsSync(controllers) &&
      readFileSync(controllers, "utf8").includes("memory")
    )
      return { folder, version: 2 };
  }
  const v1 = lines.find((line) => line.split(":")[1]?.split(",").includes("memory"))?.split(":")[2];
  const folder = v1 === undefined ? "" : join("/sys/fs/cgroup/memory", v1);
  if (v1 !== undefined && existsSync(join(folder, "memory.limit_in_bytes"))) return { folder, version: 1 };
  throw new Error(
    "no memory cgroup to make a group in (cgroup v2 with the memory controller, or v1's memory hierarchy): the container's limits cannot be applied",
  );
}

export interface Contained {
  /** The folder the service's `TMPDIR` is: a tmpfs of compose's size, or a folder on disk. */
  readonly tmp: string;
  /** `argv` started inside the cgroup. */
  command(argv: readonly string[]): string[];
  /** The most memory the group held (its processes and their tmpfs pages), in bytes. */
  peakBytes(): number;
  /** Processes the kernel killed for the group's memory. */
  oomKills(): number;
  /** Unmounts and removes what was made (every process of the group must have ended). */
  release(): void;
}

/** Whether a folder is a mount point (this process's mounts). */
function mounted(folder: string): boolean {
  return readFileSync("/proc/self/mounts", "utf8")
    .split("\n")
    .some((line) => line.split(" ")[1] === folder);
}

/** A file of the group, for its version's name. */
function groupFile(group: MemoryGroup, v1: string, v2: string): string {
  return join(group.folder, group.version === 1 ? v1 : v2);
}

/**
 * compose.yaml's limits, applied here: a memory cgroup of its memory limit, and `TMPDIR` on a tmpfs
 * of its `/tmp` size (`tmp: "tmpfs"`), or on a folder of the disk (`tmp: "disk"`, the Deployment's
 * `emptyDir`, which the kubelet bounds by evicting the pod past it).
 */
export function containerLimits(tmp: "tmpfs" | "disk"): Contained {
  if (process.getuid?.() !== 0)
    throw new Error("the container's limits are applied as root (a cgroup, a mount)");
  const { memoryBytes, tmpBytes } = composeLimits();
  const parent = ownMemoryGroup();
  const group: MemoryGroup = {
    folder: join(parent.folder, `impact-container-${process.pid}-${tmp}`),
    version: parent.version,
  };
  mkdirSync(group.folder);
  if (group.version === 1) {
    writeFileSync(join(group.folder, "memory.limit_in_bytes"), String(memoryBytes));
    // Without swap accounting set too, a machine with swap would let the group swap past its limit.
    const swap = join(group.folder, "memory.memsw.limit_in_bytes");
    if (existsSync(swap)) writeFileSync(swap, String(memoryBytes));
  } else {
    writeFileSync(join(group.folder, "memory.max"), String(memoryBytes));
    writeFileSync(join(group.folder, "memory.swap.max"), "0");
  }
  const folder = mkdtempSync(join(tmpdir(), `impact-container-${tmp}-`));
  if (tmp === "tmpfs")
    execFileSync("mount", ["-t", "tmpfs", "-o", `size=${tmpBytes},mode=1777`, "tmpfs", folder]);
  const procs = join(group.folder, "cgroup.procs");
  return {
    tmp: folder,
    command: (argv) => ["/bin/sh", "-c", 'echo $$ > "$0" && exec "$@"', procs, ...argv],
    peakBytes: () =>
      Number(readFileSync(groupFile(group, "memory.max_usage_in_bytes", "memory.peak"), "utf8")),
    oomKills: () => {
      const events = readFileSync(groupFile(group, "memory.oom_control", "memory.events"), "utf8");
      return Number(/^oom_kill (\d+)$/m.exec(events)?.[1] ?? 0);
    },
    release: () => {
      // The group first (it fails while a process is in it): the mount and folder after.
      if (existsSync(group.folder)) rmdirSync(group.folder);
      if (tmp === "tmpfs" && mounted(folder)) execFileSync("umount", [folder]);
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
