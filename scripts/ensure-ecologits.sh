#!/usr/bin/env bash
# Run by `npm test` (pretest): installs EcoLogits 0.11.3, the reference of the generative-AI
# kind (docs/methodology.md, "Generative AI"), pinned (scripts/reference/ecologits-0.11.3.txt) in
# the cache outside the repository (scripts/ensure-pinned-venv.sh). The differential test
# (test/reference/ecologits.test.ts) and the data's conversion (scripts/ecologits-data.ts) call its
# Python functions there. Prints the environment's python on stdout.
root=$(cd "$(dirname "$0")/.." && pwd)
exec bash "$root/scripts/ensure-pinned-venv.sh" ensure-ecologits.sh ecologits 0.11.3 \
  "$root/scripts/reference/ecologits-0.11.3.txt" bin/python
