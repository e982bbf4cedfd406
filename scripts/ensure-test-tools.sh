#!/usr/bin/env bash
# Run by `npm test` (pretest): what the tests need outside node_modules, each part with its own
# script, cache folder and lock.
#   In the foreground, what the first files need: Debian's chromium (scripts/ensure-chromium.sh:
#   the process project's global set-up starts it before any file) and the what-if's price list
#   (scripts/ensure-price-list.sh: test/billing/actionPrices.test.ts, a unit file).
#   In the background, what only `process` files need, which start after the unit files (minutes
#   later): the engines (scripts/ensure-engines.sh), moto (scripts/ensure-moto.sh), boaviztapi
#   2.5.0 (scripts/reference.sh install) and EcoLogits (scripts/ensure-ecologits.sh).
#   From empty caches their downloads and builds take minutes; they overlap the unit files instead
#   of coming before the whole run.
# A file that needs one of them runs that part's script itself before it starts it
# (test/support/testTools.ts, test/support/moto.ts, test/reference/ecologits.test.ts,
# test/http/openapiReference.test.ts): the script waits on its lock for the install under way, then
# finds it done, or installs the part itself when no install ran (a file run alone). The
# background's messages go to test-tools.log in the cache (IMPACT_SERVICE_CACHE, default
# ~/.cache/impact-service); a part that cannot be installed says why in its `.failed` file too,
# which the tests needing it report.
#
#   bash scripts/ensure-test-tools.sh          the foreground parts, the others started behind
#   bash scripts/ensure-test-tools.sh --wait   every part in the foreground, with the seconds each took
#
# Never fails the test run itself (as each part's script).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cache="${IMPACT_SERVICE_CACHE:-$HOME/.cache/impact-service}"
mkdir -p "$cache" || { echo "ensure-test-tools: cannot create $cache" >&2; exit 0; }
log="$cache/test-tools.log"
# The background's bound, beyond each part's own (each download and build has one)
BACKGROUND_SECONDS=3600

# timed NAME COMMAND...: COMMAND, its stdout dropped (the paths the parts print), its stderr on
# this script's, then one line of the seconds it took
timed() {
  local name=$1 start=$SECONDS
  shift
  "$@" >/dev/null
  echo "ensure-test-tools: $name $((SECONDS - start)) s" >&2
}

reference() {
  bash "$root/scripts/reference.sh" install ||
    echo 'reference.sh: boaviztapi 2.5.0 not installed; test/http/openapiReference.test.ts says why' >&2
}

# The parts the process files need, one after the other in the order those files start (the
# longest first): the engines first, whose install is the longest. Side by side they slowed each
# other: from empty caches the engines' install took 382 s beside the three others, 203 s alone
# (load 10-14), and the process files start about 400 s into a run.
background_parts() {
  timed engines bash "$root/scripts/ensure-engines.sh"
  timed moto bash "$root/scripts/ensure-moto.sh"
  timed reference reference
  timed ecologits bash "$root/scripts/ensure-ecologits.sh"
}

# The foreground first: it is what the run waits for, and the engines' downloads beside it made the
# price list take 42 s where it took 11-15 s alone (load 10-12)
timed chromium bash "$root/scripts/ensure-chromium.sh"
timed price-list bash "$root/scripts/ensure-price-list.sh"
if [ "${1:-}" = "--wait" ]; then
  background_parts
  exit 0
fi
# Its own session: the run's end or an interrupted `npm test` leaves the installs to finish (a part
# cut short is installed again by the next run: each keeps its marker until it is whole)
export -f timed reference background_parts
export root
setsid timeout "$BACKGROUND_SECONDS" bash -c background_parts </dev/null >"$log" 2>&1 &
echo "ensure-test-tools: the engines, moto, boaviztapi 2.5.0 and EcoLogits checked in the background (log: $log)" >&2
exit 0
