#!/usr/bin/env bash
# Derives the what-if's public on-demand price list (src/billing/priceList.ts, docs/billing.md
# "What-if") into the cache outside the repository, and prints its path. Run by `npm test`
# (pretest) and by `npm run price-list`; the repository keeps no price.
#   - Its source: Karpenter's generated AWS on-demand prices (us-east-1 and GovCloud's regions,
#     generated from AWS's price list), in the Go module github.com/aws/karpenter-provider-aws at the version pinned below,
#     brought by `go mod download` (its ordinary client) with the Go toolchain pinned below, its
#     module hash checked against the pinned one;
#   - derived by scripts/price-list.ts into $cache/on-demand-linux.csv.
# The cache is IMPACT_PRICE_LIST_CACHE, default ~/.cache/impact-service/price-lists (where the
# service reads its list when PRICE_LIST names none). A second run costs one file check. Never
# fails the test run itself: a list that cannot be made is said here, and the test that needs it
# (test/billing/actionPrices.test.ts) fails naming this script.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cache=${IMPACT_PRICE_LIST_CACHE:-$HOME/.cache/impact-service/price-lists}
list="$cache/on-demand-linux.csv"

MODULE=github.com/aws/karpenter-provider-aws
VERSION=v1.15.2
MODULE_SUM=h1:RGw64PB2ROUHZIUhBqjO78l3zJ9YctnWeullrr4cxYI=
# The module's go.mod asks for Go 1.26.11 or newer; the machines' Go is 1.26.8
TOOLCHAIN=go1.27.3
PRICES=pkg/providers/pricing/zz_generated.pricing_aws.go
# AWS GovCloud's regions, in USD too (the module's China file is left: its prices are not in USD)
GOV_PRICES=pkg/providers/pricing/zz_generated.pricing_aws_us_gov.go

say() { echo "ensure-price-list: $*" >&2; }
mkdir -p "$cache" || { say "cannot create $cache"; exit 0; }
exec 9>"$cache/.lock"
flock 9

marker="$cache/.made-from-$VERSION"
if [ -f "$list" ] && [ -f "$marker" ]; then
  echo "$list"
  exit 0
fi

say "bringing $MODULE@$VERSION with go mod download"
described=$(GOTOOLCHAIN=$TOOLCHAIN GOPATH="$cache/go" GOMODCACHE="$cache/go/mod" GOFLAGS=-modcacherw \
  timeout 600 go mod download -json "$MODULE@$VERSION") || { say "go mod download failed"; exit 0; }
sum=$(sed -n 's/^[[:space:]]*"Sum": "\(.*\)",*$/\1/p' <<<"$described")
dir=$(sed -n 's/^[[:space:]]*"Dir": "\(.*\)",*$/\1/p' <<<"$described")
if [ "$sum" != "$MODULE_SUM" ]; then
  say "$MODULE@$VERSION: its hash is '$sum', not $MODULE_SUM"
  exit 0
fi
for file in "$PRICES" "$GOV_PRICES"; do
  [ -f "$dir/$file" ] || { say "$MODULE@$VERSION has no $file"; exit 0; }
done
generated() { sed -n 's|^// generated at \([0-9-]*\)T.*|\1|p' "$dir/$1"; }
staging=$(mktemp "$cache/.list.XXXXXX") || exit 0
if ! (cd "$root" && timeout 120 node_modules/.bin/tsx scripts/price-list.ts \
  --source "AWS on-demand Linux prices generated from AWS's price list (us-east-1 on $(generated "$PRICES"), GovCloud on $(generated "$GOV_PRICES")), in $MODULE $VERSION (pkg/providers/pricing), Apache-2.0" \
  --out "$staging" "aws-karpenter=$dir/$PRICES" "aws-karpenter=$dir/$GOV_PRICES" >&2); then
  rm -f "$staging"
  say "scripts/price-list.ts failed"
  exit 0
fi
mv "$staging" "$list" && rm -f "$cache"/.made-from-* && touch "$marker"
echo "$list"
