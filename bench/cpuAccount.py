#!/usr/bin/env python3
"""The CPU of a command and of every process it starts, by kind of process, from the kernel's
process accounting (Debian's `acct`: accton, dump-acct; root), for a whole `bash .ci/run`:

    python3 bench/cpuAccount.py --out account.md -- bash .ci/run

Each process the kernel accounts for when it ends (its user and system time, its parent then) is
the command's when a chain of parents leads to the command. A process whose parent ended before it
is the init's child when it ends (Spark's JVM, started by its launcher script): a sampler reads
/proc every 100 ms for each process's command line and parent while it runs, which links those too
and names each process's kind (a service, the command line, a JVM). A process that lives less
than the sampler's step is linked by the kernel's parent alone. A process started apart (a
background install under `setsid`, whose parent ended at once) is linked by `--also TEXT`: a
command line holding TEXT (the run's own HOME, say) makes it and its descendants the command's.
Every figure is CPU seconds.
"""

import argparse
import collections
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

# A process's kind: the first rule whose words are all in its name or its command line
KINDS = [
    ("vitest's main process (the unit project's threads, transforms, the reporter)", ["node (vitest)"]),
    ("vitest's forks (the process and isolated projects' files, in process)", ["node (vitest "]),
    ("the service's processes the tests start (server bundle)", ["node-MainThread", "server.mjs"]),
    ("command-line runs (the CLI, the page's runs)", ["node-MainThread", "cli.mjs"]),
    ("command-line runs (the CLI, the page's runs)", ["node-MainThread", " evaluate "]),
    ("command-line runs (the CLI, the page's runs)", ["node-MainThread", "tsxEntry"]),
    ("Maven (the engines' jars)", ["mvn"]),
    ("Maven (the engines' jars)", ["maven"]),
    ("Spark's JVM", ["java", "pyspark"]),
    ("Trino's server (JVM)", ["trino"]),
    ("Chromium (every process of each browser)", ["chromium"]),
    ("pip installs", ["pip"]),
    ("moto (AWS's APIs emulated)", ["moto"]),
    ("npm ci (the install)", ["npm ci"]),
    ("Python (EcoLogits, the engines' runner, the references)", ["python"]),
    ("esbuild (the bundles)", ["esbuild"]),
    ("other node processes", ["node"]),
]


def kind_of(name: str, command: str) -> str:
    text = f"{name} {command}"
    for kind, words in KINDS:
        if all(word in text for word in words):
            return kind
    return "other"


def sample(seen: dict, stop: threading.Event) -> None:
    while not stop.is_set():
        for entry in os.listdir("/proc"):
            if not entry.isdigit() or int(entry) in seen:
                continue
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as f:
                    command = f.read().replace(b"\0", b" ").decode(errors="replace")[:300]
                with open(f"/proc/{entry}/stat") as f:
                    stat = f.read()
            except OSError:
                continue
            if command:
                seen[int(entry)] = (int(stat[stat.rindex(")") + 2 :].split()[1]), command)
        stop.wait(0.1)


def accounted(pacct: str) -> list:
    records = []
    for line in subprocess.run(["dump-acct", pacct], capture_output=True, text=True, check=True).stdout.splitlines():
        f = [part.strip() for part in line.split("|")]
        # dump-acct's columns: name, version, user and system time (clock ticks), ..., pid, ppid
        records.append({"name": f[0], "cpu": (float(f[2]) + float(f[3])) / os.sysconf("SC_CLK_TCK"), "pid": int(f[9]), "ppid": int(f[10])})
    return records


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", help="the table's file (markdown); standard output without")
    parser.add_argument("--also", help="a text in the command lines of processes started apart")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command or shutil.which("accton") is None or os.geteuid() != 0:
        print("usage: python3 bench/cpuAccount.py [--out FILE] -- COMMAND… (as root, with Debian's acct)", file=sys.stderr)
        return 2
    folder = tempfile.mkdtemp(prefix="cpu-account-")
    pacct = os.path.join(folder, "pacct")
    open(pacct, "w").close()
    seen: dict = {}
    stop = threading.Event()
    sampler = threading.Thread(target=sample, args=(seen, stop), daemon=True)
    subprocess.run(["accton", pacct], check=True, capture_output=True)
    started = time.time()
    try:
        sampler.start()
        child = subprocess.Popen(command)
        code = child.wait()
    finally:
        subprocess.run(["accton", "off"], capture_output=True)
        stop.set()
        sampler.join()
    wall = time.time() - started
    records = accounted(pacct)
    shutil.rmtree(folder, ignore_errors=True)
    parents = {pid: ppid for pid, (ppid, _) in seen.items()}

    def marked(pid: int) -> bool:
        return args.also is not None and args.also in seen.get(pid, (0, ""))[1]

    def ours(pid: int, ppid: int) -> bool:
        for start in (ppid, parents.get(pid)):
            step = start
            for _ in range(64):
                if step is None or step <= 1:
                    break
                if step == child.pid or marked(step):
                    return True
                step = parents.get(step)
        return pid == child.pid or marked(pid)

    # The kernel's parent links first (a short process the sampler missed), then the sampler's
    for record in records:
        parents.setdefault(record["pid"], record["ppid"])
    cpu = collections.Counter()
    count = collections.Counter()
    for record in records:
        if ours(record["pid"], record["ppid"]):
            kind = kind_of(record["name"], seen.get(record["pid"], (0, ""))[1])
            cpu[kind] += record["cpu"]
            count[kind] += 1
    total = sum(cpu.values())
    lines = [
        f"`{' '.join(command)}`: exit {code}, {wall:,.0f} s wall, {total:,.1f} CPU s in {sum(count.values())} processes",
        "",
        "| Processes | Count | CPU s | Share |",
        "|---|---:|---:|---:|",
        *[f"| {kind} | {count[kind]} | {seconds:,.1f} | {100 * seconds / total:.1f} % |" for kind, seconds in cpu.most_common()],
    ]
    text = "\n".join(lines) + "\n"
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)
    print(text, end="")
    return code


if __name__ == "__main__":
    sys.exit(main())
