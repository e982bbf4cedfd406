#!/usr/bin/env bash
# A pinned Python package in a virtual environment of the cache outside the repository
# (IMPACT_SERVICE_CACHE, default ~/.cache/impact-service; <name>-<version>/ under it), every package
# of PINS installed with its sha256, wheels only. What `ensure-ecologits.sh` and `ensure-moto.sh`
# share; each names its package and what it prints.
#
#   ensure-pinned-venv.sh SCRIPT NAME VERSION PINS PRINTED
#
# SCRIPT names the caller in messages; NAME is the module imported to check the VERSION; PRINTED
# is the environment's file printed on stdout once installed (`bin/python`, `bin/moto_server`).
# What is installed is kept: a second run compares the pins with the installed ones and stops.
# Runs holding the cache at once wait for each other (flock). Never fails the test run itself: an
# install that fails is written to <name>-<version>.failed beside the environment, which the tests
# report as their reason.
set -uo pipefail
script=$1 name=$2 version=$3 pins=$4 printed=$5
cache="${IMPACT_SERVICE_CACHE:-$HOME/.cache/impact-service}"
dir="$cache/$name-$version"
# Bound of the install (a download that hangs is stopped).
INSTALL_SECONDS=600
say() { echo "ensure-$name: $*" >&2; }
mkdir -p "$cache" || { say "cannot create $cache"; exit 0; }
exec 9>"$cache/.$name.lock"
flock 9

if [[ -x "$dir/venv/$printed" ]] && cmp -s "$pins" "$dir/installed-pins.txt"; then
  echo "$dir/venv/$printed"
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
  "$dir/venv/bin/python" -c "import $name, sys; sys.exit($name.__version__ != '$version')" >>"$log" 2>&1; then
  cp "$pins" "$dir/installed-pins.txt"
  say "$name $version installed in $dir/venv"
  echo "$dir/venv/$printed"
else
  { echo "$name $version could not be installed by scripts/$script:"; tail -20 "$log"; } >"$dir.failed"
  cat "$dir.failed" >&2
fi
rm -f "$log"
exit 0
