#!/usr/bin/env bash
# Run by `npm test` (pretest): installs moto 5.2.5 in server mode, the AWS emulator the scan's
# tests read an account from (test/scan/, docs/scan.md), pinned (scripts/reference/moto-5.2.5.txt)
# in the cache outside the repository (scripts/ensure-pinned-venv.sh). Prints the environment's
# moto_server on stdout.
root=$(cd "$(dirname "$0")/.." && pwd)
exec bash "$root/scripts/ensure-pinned-venv.sh" ensure-moto.sh moto 5.2.5 \
  "$root/scripts/reference/moto-5.2.5.txt" bin/moto_server
