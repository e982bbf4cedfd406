#!/usr/bin/env bash
# boaviztapi's own API tests (its tests/api, pytest) run twice: against the rebuilt reference itself
# (in process, as its own CI runs them) and against this service (every request sent over HTTP to a
# service started here with EDITIONS_FILE=test/fixtures/editions.yml, each URL with
# edition=testdata-<version>: the edition's rules on boaviztapi's test data set). Prints each run's
# counts as pytest gives them (passed, failed, skipped: a skipped test is not a pass) and its
# failing tests; a test failing against the service but not against the reference is a difference.
# Not part of CI (it needs the reference and its tests).
#
#   UPSTREAM_TESTS=/path/to/boaviztapi/tests bash scripts/upstream-tests.sh [OUTDIR]
#
# UPSTREAM_TESTS: the `tests/` folder of a boaviztapi source tree. boaviztapi 2.5.0's source
# distribution on the package index has no tests; its repository's newest published tests are those
# of tag v2.4.1 (what docs/DEVIATIONS.md reports was run). The test data set of that folder is used,
# with the 2.5.0 package's memory-type table added (2.5.0 reads it at import; 2.4.1's data lacks it).
set -euo pipefail
VERSION=2.5.0
root=$(cd "$(dirname "$0")/.." && pwd)
tests=${UPSTREAM_TESTS:?UPSTREAM_TESTS: the tests/ folder of a boaviztapi source tree}
out=${1:-/tmp/upstream-tests-$VERSION}
cache="${IMPACT_SERVICE_CACHE:-$HOME/.cache/impact-service}/boaviztapi-$VERSION"
PINS="$root/scripts/reference/pytest-$VERSION.txt"
# Bounds: the install, each pytest run and the service's start.
INSTALL_SECONDS=600
RUN_SECONDS=900
START_SECONDS=120

bash "$root/scripts/reference.sh" install
source_dir=$(bash "$root/scripts/reference.sh" source)
if ! cmp -s "$PINS" "$cache/installed-pytest.txt"; then
  timeout "$INSTALL_SECONDS" "$cache/venv/bin/python" -m pip install --quiet --no-deps -r "$PINS"
  cp "$PINS" "$cache/installed-pytest.txt"
fi

# A work tree laid out as the repository: the released package's code beside the tests, whose
# data set the package reads (boaviztapi/__init__.py: ../tests/data when BOAVIZTAPI_USE_TEST_DATA).
rm -rf "$out" && mkdir -p "$out/work"
cp -r "$source_dir/boaviztapi" "$out/work/boaviztapi"
cp -r "$tests" "$out/work/tests"
mkdir -p "$out/work/tests/data/consumption_profile/ram"
cp "$source_dir/boaviztapi/data/consumption_profile/ram/memory_type.csv" "$out/work/tests/data/consumption_profile/ram/"
cp "$root/scripts/reference/to_service.py" "$out/work/to_service.py"

run() { # name [pytest args...]
  local name=$1; shift
  (cd "$out/work" && PYTHONPATH="$out/work" timeout "$RUN_SECONDS" "$cache/venv/bin/python" -m pytest tests/api \
    -q -p no:cacheprovider --junitxml="$out/$name.xml" "$@" >"$out/$name.log" 2>&1) || true
  python3 - "$out/$name.xml" "$name" <<'PY'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
cases = list(root.iter("testcase"))
name = lambda c: f"{c.get('classname').split('.')[-1]}::{c.get('name')}"
failed = [name(c) for c in cases if c.find("failure") is not None or c.find("error") is not None]
skipped = [c for c in cases if c.find("skipped") is not None]
ran = len(cases) - len(skipped)
# As pytest counts them: a skipped test (the e2e cases, without --rune2e) is no pass.
print(f"{sys.argv[2]}: {ran - len(failed)} of {ran} run passed, {len(failed)} failed; {len(skipped)} skipped")
for failure in failed: print(f"  failed: {failure}")
PY
}

run reference

port=$((20000 + RANDOM % 10000))
(cd "$root" && EDITIONS_FILE=test/fixtures/editions.yml PORT=$port LOG_LEVEL=warn exec npx tsx src/app/main.ts >"$out/service.log" 2>&1) &
service=$!
trap 'kill $service 2>/dev/null || true' EXIT
waited=0
until curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1; do
  ((waited++ < START_SECONDS * 2)) || { echo "the service did not start; $out/service.log" >&2; exit 1; }
  sleep 0.5
done
IMPACT_SERVICE_URL="http://127.0.0.1:$port" IMPACT_SERVICE_EDITION="testdata-$VERSION" run service -p to_service
