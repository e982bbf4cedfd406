#!/usr/bin/env bash
# Records what the command writes for every billing fixture under several option sets, for a
# refactor that must change no output: run it before and after, then `diff -r` the two folders.
# Each run's folder holds its outputs (CSV, Parquet, report, groups, tables), its stdout, its
# stderr without the timing figures (rows/s, seconds) and its exit code.
#
#   bash scripts/billing-snapshot.sh OUTDIR
set -uo pipefail
out=${1:?usage: billing-snapshot.sh OUTDIR}
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
cli="$root/bin/impact-service.mjs"
fixtures="$root/test/fixtures/billing"
# the public sample exports, beside the checkout (test/fixtures/README.md)
public="$root/../shared/public-exports"
[ -d "$public" ] || echo "billing-snapshot: $public not found; the public exports' runs are left out" >&2

# run NAME ARGS... : one run in its own folder, outputs named relative to it
run() {
  local name=$1; shift
  local dir="$out/$name"
  rm -rf "$dir"; mkdir -p "$dir"
  (cd "$dir" && node "$cli" "$@" >stdout 2>stderr.raw; echo $? >exit)
  # timing figures vary run to run; everything else must not
  sed -E 's/[0-9.,]+ rows\/s//g; s/in [0-9.]+ s/in T s/g; s/[0-9.]+ ?ms\b/T ms/g' "$dir/stderr.raw" >"$dir/stderr"
  rm -f "$dir/stderr.raw"
  # the checkout's path is not part of what is compared (two worktrees record the same runs)
  grep -rlF --exclude='*.parquet' "$root" "$dir" | while read -r f; do
    sed -i "s#$root#ROOT#g" "$f"
  done
}

for path in "$fixtures"/*.csv "$fixtures"/*.csv.gz "$fixtures"/*.parquet "$fixtures"/*.json "$fixtures"/*.json.gz \
  "$public"/*.csv "$public"/*.csv.gz; do
  [ -f "$path" ] || continue
  f=$(basename "$path")
  run "$f.241" evaluate "$path" --edition 2.4.1 -o out.csv
  run "$f.124" evaluate "$path" -o out.csv
  run "$f.options" evaluate "$path" --edition 2.4.1 --criteria gwp,adp --load 50 --ranges -o out.csv --report report.html --tables tables
  run "$f.parquet" evaluate "$path" --edition 2.4.1 --criteria gwp -o out.parquet
  run "$f.stdout" evaluate "$path" --edition 2.4.1 --criteria pe
  for engine in duckdb spark trino bigquery; do
    run "$f.sql-$engine" sql --engine "$engine" --header "$path"
  done
done
for path in "$fixtures"/grid/*.csv; do
  f=$(basename "$path")
  [ "$f" = zones.csv ] && continue
  for series in "$root"/test/fixtures/grid/*.csv; do
    s=$(basename "$series" .csv)
    run "grid-$f.$s" evaluate "$path" --edition 2.4.1 --criteria gwp --grid-intensity "$series" \
      --grid-zones "$fixtures/grid/zones.csv" -o out.csv --report report.html
  done
done
run "coefficients.241" coefficients --edition 2.4.1 -o coefficients.csv
echo "billing snapshot: $(ls "$out" | wc -l) runs in $out"
