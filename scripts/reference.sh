#!/usr/bin/env bash
# The reference rebuilt from its released package: boaviztapi 2.5.0 from the Python package index,
# installed into a cache outside the repository and started the way its container starts it
# (uvicorn boaviztapi.main:app). Not part of the service, never needed by CI: the differential
# harness (scripts/differential.ts) talks to it, the recorded corpus (test/fixtures/reference-2.5.0)
# replaces it in the tests.
#
#   bash scripts/reference.sh install        download (pinned, sha256-checked) and install
#   bash scripts/reference.sh start [PORT]   install if needed, start on 127.0.0.1:PORT (default 5250),
#                                            wait until it answers, print its pid; log in the cache
#   bash scripts/reference.sh stop           stop the one this script started (its pid file)
#   bash scripts/reference.sh source         the unpacked source distribution's folder (to read its code)
#   bash scripts/reference.sh openapi        install if needed, print its FastAPI app's openapi() JSON
#                                            (test/http/openapiReference.test.ts compares ours with it)
#
# Cache: $IMPACT_SERVICE_CACHE or ~/.cache/impact-service (boaviztapi-2.5.0/ under it).
set -euo pipefail

VERSION=2.5.0
WHEEL_SHA256=1f0a3b677a247cd9e0f11cb68c87661c4a18285c6754c71c96c0987b7f083cff
SDIST_SHA256=411a6c91c0ba3b56d53620286fd5ca92a241be3e886e08531cb75f89e8c39402
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
PINS="$HERE/reference/boaviztapi-$VERSION.txt"
CACHE="${IMPACT_SERVICE_CACHE:-$HOME/.cache/impact-service}/boaviztapi-$VERSION"
VENV="$CACHE/venv"
PIDFILE="$CACHE/uvicorn.pid"
# Bounds: a download or install that takes longer is stopped; the start waits this long at most.
INSTALL_SECONDS=900
START_SECONDS=120

checked() { # file sha256
  echo "$2  $1" | sha256sum --check --status || { echo "sha256 mismatch: $1" >&2; return 1; }
}

download() {
  mkdir -p "$CACHE/dist"
  local wheel="$CACHE/dist/boaviztapi-$VERSION-py3-none-any.whl" sdist="$CACHE/dist/boaviztapi-$VERSION.tar.gz"
  if [[ ! -f "$wheel" ]]; then
    timeout "$INSTALL_SECONDS" python3 -m pip download --quiet --no-deps --only-binary :all: \
      --dest "$CACHE/dist" "boaviztapi==$VERSION"
  fi
  if [[ ! -f "$sdist" ]]; then
    timeout "$INSTALL_SECONDS" python3 -m pip download --quiet --no-deps --no-binary :all: \
      --dest "$CACHE/dist" "boaviztapi==$VERSION"
  fi
  checked "$wheel" "$WHEEL_SHA256"
  checked "$sdist" "$SDIST_SHA256"
  if [[ ! -d "$CACHE/source/boaviztapi-$VERSION" ]]; then
    mkdir -p "$CACHE/source" && tar -xzf "$sdist" -C "$CACHE/source"
  fi
}

# The pins as name==version lines: an install made from the same versions (with or without their
# hashes, by this script or an earlier one) is kept.
versions() { grep -Eo '^[A-Za-z0-9_.-]+==[^ \]+' "$1" 2>/dev/null; }

# One install at a time: `npm test` installs in the background (scripts/ensure-test-tools.sh) while
# test/http/openapiReference.test.ts may already ask for the document; the second waits for the
# first, then finds it installed. A lock of the install alone, not of the script: a started
# server's process would hold it.
install() {
  mkdir -p "$CACHE"
  (
    flock 8
    install_unlocked
  ) 8>"$CACHE.lock"
}

install_unlocked() {
  download
  if [[ -x "$VENV/bin/uvicorn" ]] && [[ "$(versions "$PINS")" == "$(versions "$CACHE/installed-pins.txt")" ]]; then
    return
  fi
  rm -rf "$VENV"
  python3 -m venv "$VENV"
  # Hash-checking mode (every pin has its sha256), wheels only: nothing is built, nothing comes from
  # pip's cache unchecked.
  timeout "$INSTALL_SECONDS" "$VENV/bin/python" -m pip install --quiet --no-deps --only-binary :all: \
    --require-hashes -r "$PINS"
  timeout "$INSTALL_SECONDS" "$VENV/bin/python" -m pip install --quiet --no-deps \
    "$CACHE/dist/boaviztapi-$VERSION-py3-none-any.whl"
  "$VENV/bin/python" -m pip check >/dev/null
  cp "$PINS" "$CACHE/installed-pins.txt"
}

start() {
  local port="${1:-5250}"
  install
  if [[ -f "$PIDFILE" ]] && kill -0 "$(cat "$PIDFILE")" 2>/dev/null; then
    echo "already running: pid $(cat "$PIDFILE")" >&2
    cat "$PIDFILE"
    return
  fi
  # As its container: uvicorn boaviztapi.main:app (one worker), here on the loopback only.
  (cd "$CACHE" && exec "$VENV/bin/uvicorn" boaviztapi.main:app --host 127.0.0.1 --port "$port" \
    --log-level warning >"$CACHE/uvicorn.log" 2>&1) &
  echo $! >"$PIDFILE"
  local waited=0
  until curl -fsS "http://127.0.0.1:$port/v1/utils/version" >/dev/null 2>&1; do
    if ! kill -0 "$(cat "$PIDFILE")" 2>/dev/null; then
      echo "the reference stopped; its log: $CACHE/uvicorn.log" >&2
      return 1
    fi
    ((waited++ < START_SECONDS * 2)) || { echo "the reference did not answer in ${START_SECONDS}s" >&2; return 1; }
    sleep 0.5
  done
  cat "$PIDFILE"
}

stop() {
  [[ -f "$PIDFILE" ]] || return 0
  kill "$(cat "$PIDFILE")" 2>/dev/null || true
  rm -f "$PIDFILE"
}

case "${1:-}" in
  install) install ;;
  start) start "${2:-}" ;;
  stop) stop ;;
  source) download >/dev/null && echo "$CACHE/source/boaviztapi-$VERSION" ;;
  openapi)
    install >&2
    # Its app's own document, as FastAPI serves it at /openapi.json (the package's data, not a test set).
    (cd "$CACHE" && timeout "$START_SECONDS" "$VENV/bin/python" -c \
      'import json, sys; from boaviztapi.main import app; json.dump(app.openapi(), sys.stdout, sort_keys=True)')
    ;;
  *) sed -n '2,14p' "$0" >&2; exit 64 ;;
esac
