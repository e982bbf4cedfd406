#!/usr/bin/env bash
# Points citations of the reference's specification texts (METHOD.md, METHOD-2.4.1, M§) at the
# project's own docs/methodology.md, by the mapping stated there ("Citing"): 1.2.4 section N.M is
# §N.M, 2.4.1 delta section N.M is §19.N.M, 2.4.1 quirk N is §19.15.N. For branches written while
# the document did not exist; test/docs/methodology.test.ts then checks every citation resolves.
# Usage: bash scripts/repoint-citations.sh (then review the diff).
set -euo pipefail
cd "$(dirname "$0")/.."
grep -rlE 'METHOD|M§' src test scripts bench docs README.md data \
  --include='*.ts' --include='*.md' --include='*.graphql' \
  | grep -vxE 'test/docs/methodology\.test\.ts|docs/methodology\.md|scripts/repoint-citations\.sh' \
  | xargs -r sed -i -E \
    -e 's/METHOD-2\.4\.1(\.md)?,? Appendix D\.([0-9]+)/docs\/methodology.md §19.15.\2/g' \
    -e 's/METHOD-2\.4\.1(\.md)?,? ?§ ?([0-9])/docs\/methodology.md §19.\2/g' \
    -e 's/METHOD-2\.4\.1\.md(, a delta on METHOD\.md)?/docs\/methodology.md §19/g' \
    -e 's/METHOD-2\.4\.1\b/docs\/methodology.md §19/g' \
    -e 's/METHOD(\.md)?,? ?(§|Appendix)/docs\/methodology.md \2/g' \
    -e 's/METHOD\.md/docs\/methodology.md/g' \
    -e 's/(^|[^A-Za-z])M§/\1docs\/methodology.md §/g'
# Longer lines may need re-wrapping; citations inside GraphQL descriptions and edition summaries
# also change the emitted SDL, the generated operation types and the generated data READMEs.
npm run --silent format
npm run --silent schema
npm run --silent codegen
npm run --silent data
