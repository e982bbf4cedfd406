#!/usr/bin/env bash
# Run by `npm test` (pretest): installs moto 5.2.5 in server mode, the AWS emulator the scan's
# tests read an account from (test/scan/, docs/scan.md), into a virtual environment in a cache
# outside the repository (IMPACT_SERVICE_CACHE, default ~/.cache/impact-service; moto-5.2.5/ under
# it), every package pinned with its sha256 (scripts/reference/moto-5.2.5.txt). Prints the
# environment's moto_server on stdout.
#
# What is installed is kept: a second run compares the pins with the installed ones and stops.
# Runs holding the cache at once wait for each other (flock). Never fails the test run itself:
# an install that fails is written to moto-5.2.5.failed beside the environment, which the tests
# report as their reason.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
pins="$root/scripts/reference/moto-5.2.5.txt"
cache="${IMPACT_SERVICE_CACHE:-$HOME/.cache/impact-service}"
dir="$cache/moto-5.2.5"
# Bound of the install (a download that hangs is stopped).
INSTALL_SECONDS=600
say() { echo "ensure-moto: $*" >&2; }
mkdir -p "$cache" || { say "cannot create $cache"; exit 0; }
exec 9>"$cache/.moto.lock"
flock 9

if [[ -x "$dir/venv/bin/moto_server" ]] && cmp -s "$pins" "$dir/installed-pins.txt"; then
  echo "$dir/venv/bin/moto_server"
  exit 0
fi
rm -rf "$dir" "$dir.failed"
mkdir -p "$dir"
log=$(mktemp)
if python3 -m venv "$dir/venv" >"$log" 2>&1 &&
  timeout "$INSTALL_SECONDS" "$dir/venv/bin/python" -m pip install --quiet --disable-pip-version-check \
    --require-hashes --only-binary :all: --no-deps -r "$pins" >>"$log" 2>&1 &&
  "$dir/venv/bin/python" -m pip check >>"$log" 2>&1 &&
  "$dir/venv/bin/python" -c "import moto, sys; sys.exit(moto.__version__ != '5.2.5')" >>"$log" 2>&1; then
  cp "$pins" "$dir/installed-pins.txt"
  say "moto 5.2.5 installed in $dir/venv"
  echo "$dir/venv/bin/moto_server"
else
  { echo "moto 5.2.5 could not be installed by scripts/ensure-moto.sh:"; tail -20 "$log"; } >"$dir.failed"
  cat "$dir.failed" >&2
fi
rm -f "$log"
exit 0
