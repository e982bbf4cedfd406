#!/usr/bin/env python3
"""
Runs a command under a child subreaper and says its wall time and the CPU (user + sys) of every
process it started: `python3 bench/reaped.py npx vitest run FILE`. `/usr/bin/time` counts only
the descendants their parents waited for; a service killed with its process group, Chromium's
renderers and a JVM end as orphans of init, and their CPU is lost to it. Here they are re-parented
to this process (Linux's PR_SET_CHILD_SUBREAPER) and reaped by it, so the CPU said is the whole
tree's. The summary goes to stderr; the exit code is the command's.
"""
import ctypes
import os
import resource
import subprocess
import sys
import time

PR_SET_CHILD_SUBREAPER = 36

if len(sys.argv) < 2:
    sys.exit("usage: reaped.py COMMAND [ARGUMENT...]")
if ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
    sys.exit("reaped.py: this system has no child subreaper (Linux 3.4 and later)")
start = time.monotonic()
command = subprocess.Popen(sys.argv[1:])
code = 0
# Every descendant, the orphans re-parented here included, until none is left
while True:
    try:
        pid, status = os.wait()
    except ChildProcessError:
        break
    if pid == command.pid:
        code = os.waitstatus_to_exitcode(status)
used = resource.getrusage(resource.RUSAGE_CHILDREN)
print(
    f"reaped: {time.monotonic() - start:.1f} s wall, {used.ru_utime:.1f} user + {used.ru_stime:.1f} sys"
    f" = {used.ru_utime + used.ru_stime:.1f} CPU s, exit {code}",
    file=sys.stderr,
)
sys.exit(code if code >= 0 else 128 - code)
