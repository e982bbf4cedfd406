#!/usr/bin/env bash
# Run by `npm test` (pretest): installs EcoLogits 0.11.3, the reference of the generative-AI
# kind (docs/methodology.md, "Generative AI"), into a virtual environment in a cache outside the
# repository (IMPACT_SERVICE_CACHE, default ~/.cache/impact-service; ecologits-0.11.3/ under it),
# every package pinned with its sha256 (scripts/reference/ecologits-0.11.3.txt). The differential
# test (test/reference/ecologits.test.ts) and the data's conversion (scripts/ecologits-data.ts)
# call its Python functions there. Prints the environment's python on stdout.
#
# What is installed is kept: a second run compares the pins with the installed ones and stops.
# Runs holding the cache at once wait for each other (flock). Never fails the test run itself:
# an install that fails is written to ecologits-0.11.3.failed beside the environment, which the
# test reports as its reason.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
pins="$root/scripts/reference/ecologits-0.11.3.txt"
cache="${IMPACT_SERVICE_CACHE:-$HOME/.cache/impact-service}"
dir="$cache/ecologits-0.11.3"
# Bound of the install (a download that hangs is stopped).
INSTALL_SECONDS=600
say() { echo "ensure-ecologits: $*" >&2; }
mkdir -p "$cache" || { say "cannot create $cache"; exit 0; }
exec 9>"$cache/.ecologits.lock"
flock 9

if [[ -x "$dir/venv/bin/python" ]] && cmp -s "$pins" "$dir/installed-pins.txt"; then
  echo "$dir/venv/bin/python"
  exit 0
fi
rm -rf "$dir" "$dir.failed"
mkdir -p "$dir"
log=$(mktemp)
# Wheels only (--only-binary): a fresh venv has no `wheel` to build a source distribution with,
# and every pin is a wheel for CPython 3.11 on manylinux x86_64.
if python3 -m venv "$dir/venv" >"$log" 2>&1 &&
  timeout "$INSTALL_SECONDS" "$dir/venv/bin/python" -m pip install --quiet --disable-pip-version-check \
    --require-hashes --only-binary :all: --no-deps -r "$pins" >>"$log" 2>&1 &&
  "$dir/venv/bin/python" -m pip check >>"$log" 2>&1 &&
  "$dir/venv/bin/python" -c "import ecologits, sys; sys.exit(ecologits.__version__ != '0.11.3')" >>"$log" 2>&1; then
  cp "$pins" "$dir/installed-pins.txt"
  say "ecologits 0.11.3 installed in $dir/venv"
  echo "$dir/venv/bin/python"
else
  { echo "ecologits 0.11.3 could not be installed by scripts/ensure-ecologits.sh:"; tail -20 "$log"; } >"$dir.failed"
  cat "$dir.failed" >&2
fi
rm -f "$log"
exit 0
