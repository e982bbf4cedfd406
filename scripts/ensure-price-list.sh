#!/usr/bin/env bash
# Derives the what-if's public on-demand price list (src/billing/priceList.ts, docs/billing.md
# "What-if") into the cache outside the repository, and prints its path. Run by `npm test`
# (pretest) and by `npm run price-list`; the repository keeps no price.
#   - Its sources, in the Go modules pinned below, brought by `go mod download` (their ordinary
#     client) with the Go toolchain pinned below, each module's hash checked against the pinned one:
#       AWS EC2 at every region: ec2instances.info's dump (github.com/cristim/ec2-instances-info,
#         data/instances.json; the data of the site ec2instances.info, MIT), and its RDS and
#         ElastiCache nodes per engine (data/rds-instances.json, data/elasticache-instances.json),
#         and OpenSearch Service's nodes (data/opensearch-instances.json);
#       AWS, the types that dump lacks: Karpenter's generated prices, us-east-1 and GovCloud's
#         regions (github.com/aws/karpenter-provider-aws);
#       Azure: the public regions' Linux VMs, Karpenter's (github.com/Azure/karpenter-provider-azure);
#   - derived by scripts/price-list.ts into $cache/on-demand-linux.csv, a type's prices all from
#     the first of these that has it (scripts/price-list/precedence.ts says why).
# The cache is IMPACT_PRICE_LIST_CACHE, default ~/.cache/impact-service/price-lists (where the
# service reads its list when PRICE_LIST names none). A second run costs one file check; a list
# made from other versions is made again. Never fails the test run itself: a list that cannot be
# made is said here, and the test that needs it (test/billing/actionPrices.test.ts) fails naming
# this script.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cache=${IMPACT_PRICE_LIST_CACHE:-$HOME/.cache/impact-service/price-lists}
list="$cache/on-demand-linux.csv"

AWS_MODULE=github.com/aws/karpenter-provider-aws
AWS_VERSION=v1.15.2
AWS_SUM=h1:RGw64PB2ROUHZIUhBqjO78l3zJ9YctnWeullrr4cxYI=
AWS_PRICES=pkg/providers/pricing/zz_generated.pricing_aws.go
# AWS GovCloud's regions, in USD too (the module's China file is left: its prices are not in USD)
AWS_GOV_PRICES=pkg/providers/pricing/zz_generated.pricing_aws_us_gov.go
AZURE_MODULE=github.com/Azure/karpenter-provider-azure
# The one version of it the module proxy serves here
AZURE_VERSION=v0.7.0
AZURE_SUM=h1:cqtiy5cKxfqtqxm7ch6mzPBGeBuon0F1k2QgbnnuxDg=
AZURE_PRICES=pkg/providers/pricing/zz_generated.pricing.go
# ec2instances.info's dumps as the module's commit of 2025-05-28 holds them (its go.mod names it
# github.com/LeanerCloud/ec2-instances-info; the proxy serves it by this path)
EC2INFO_MODULE=github.com/cristim/ec2-instances-info
EC2INFO_VERSION=v0.0.0-20250528091325-32acf84f42eb
EC2INFO_SUM=h1:exJ9FsMTbotSG5xgDHmFJE84gV3MZ4JRpR8nhbgJz/k=
EC2INFO_PRICES=data/instances.json
EC2INFO_RDS=data/rds-instances.json
EC2INFO_ELASTICACHE=data/elasticache-instances.json
EC2INFO_OPENSEARCH=data/opensearch-instances.json
# The AWS module's go.mod asks for Go 1.26.11 or newer; the machines' Go is 1.26.8
TOOLCHAIN=go1.27.3

say() { echo "ensure-price-list: $*" >&2; }
mkdir -p "$cache" || { say "cannot create $cache"; exit 0; }
exec 9>"$cache/.lock"
flock 9

marker="$cache/.made-from-ec2instances-sold-$EC2INFO_VERSION-aws-$AWS_VERSION-azure-$AZURE_VERSION"
if [ -f "$list" ] && [ -f "$marker" ]; then
  echo "$list"
  exit 0
fi

# The directory of MODULE@VERSION (its hash checked against SUM) whose FILES are all there, on stdout
bring() {
  local module=$1 version=$2 expected=$3 described sum dir file
  shift 3
  say "bringing $module@$version with go mod download"
  described=$(GOTOOLCHAIN=$TOOLCHAIN GOPATH="$cache/go" GOMODCACHE="$cache/go/mod" GOFLAGS=-modcacherw \
    timeout 600 go mod download -json "$module@$version") || { say "go mod download $module failed"; return 1; }
  sum=$(sed -n 's/^[[:space:]]*"Sum": "\(.*\)",*$/\1/p' <<<"$described")
  dir=$(sed -n 's/^[[:space:]]*"Dir": "\(.*\)",*$/\1/p' <<<"$described")
  if [ "$sum" != "$expected" ]; then
    say "$module@$version: its hash is '$sum', not $expected"
    return 1
  fi
  for file in "$@"; do
    [ -f "$dir/$file" ] || { say "$module@$version has no $file"; return 1; }
  done
  echo "$dir"
}
aws=$(bring "$AWS_MODULE" "$AWS_VERSION" "$AWS_SUM" "$AWS_PRICES" "$AWS_GOV_PRICES") || exit 0
azure=$(bring "$AZURE_MODULE" "$AZURE_VERSION" "$AZURE_SUM" "$AZURE_PRICES") || exit 0
ec2info=$(bring "$EC2INFO_MODULE" "$EC2INFO_VERSION" "$EC2INFO_SUM" "$EC2INFO_PRICES" "$EC2INFO_RDS" "$EC2INFO_ELASTICACHE" "$EC2INFO_OPENSEARCH") || exit 0
# The date of the module's commit, as its pseudo-version names it (vX.Y.Z-yyyymmddhhmmss-commit)
committed=$(sed -n 's/^.*-\([0-9]\{4\}\)\([0-9]\{2\}\)\([0-9]\{2\}\)[0-9]\{6\}-[0-9a-f]*$/\1-\2-\3/p' <<<"$EC2INFO_VERSION")
# The date a generated file's header names
generated() { sed -n 's|^// generated at \([0-9-]*\)T.*|\1|p' "$1"; }
source_text="AWS EC2 on-demand Linux prices, RDS's and ElastiCache's on-demand node prices per engine and OpenSearch's, of ec2instances.info (data/instances.json, rds-instances.json, elasticache-instances.json, opensearch-instances.json as committed on $committed in $EC2INFO_MODULE $EC2INFO_VERSION; the data MIT, Copyright (c) 2013 Garret Heaton), every type it has at every region; for the types it lacks, AWS on-demand Linux prices generated from AWS's price list (us-east-1 on $(generated "$aws/$AWS_PRICES"), GovCloud on $(generated "$aws/$AWS_GOV_PRICES")), in $AWS_MODULE $AWS_VERSION (pkg/providers/pricing), Apache-2.0; Azure on-demand Linux VM prices generated from Azure's retail prices on $(generated "$azure/$AZURE_PRICES"), in $AZURE_MODULE $AZURE_VERSION (pkg/providers/pricing), Apache-2.0"
staging=$(mktemp "$cache/.list.XXXXXX") || exit 0
if ! (cd "$root" && timeout 300 node_modules/.bin/tsx scripts/price-list.ts --source "$source_text" --out "$staging" \
  "aws-ec2instances=$ec2info/$EC2INFO_PRICES" \
  "aws-ec2instances-rds=$ec2info/$EC2INFO_RDS" "aws-ec2instances-elasticache=$ec2info/$EC2INFO_ELASTICACHE" \
  "aws-ec2instances-opensearch=$ec2info/$EC2INFO_OPENSEARCH" "aws-karpenter=$aws/$AWS_PRICES" "aws-karpenter=$aws/$AWS_GOV_PRICES" "azure-karpenter=$azure/$AZURE_PRICES" >&2); then
  rm -f "$staging"
  say "scripts/price-list.ts failed"
  exit 0
fi
mv "$staging" "$list" && rm -f "$cache"/.made-from-* && touch "$marker"
echo "$list"
