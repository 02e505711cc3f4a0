#!/usr/bin/env bash
# Prints the training files of the profile-guided builds (the wheel's,
# python/build-wheel.sh, and the binary's, pgo/build-cli.sh), one per line,
# absolute, in a fixed order: the same set for both.
#
# - the fixtures' HTML, XHTML, CSS and messages (in the repository, so that
#   anyone can build with a profile);
# - when the corpus is there (LINKBASE_CORPUS, default ../shared/corpus
#   beside the checkout; CI has it), its MHTML saves of real pages nobody on
#   the team wrote: Chrome's saves of GitHub, Stack Overflow, MDN, Wikipedia,
#   USA Today, MarketWatch, Hacker News … (15 MB). Without it the profile is
#   trained on the fixtures alone (docs/performance.md, "Profile-guided
#   builds").
#
# Never the benchmarks' pages (the Python documentation): a profile made on
# them would flatter the benchmarks.
set -euo pipefail
cd "$(dirname "$0")/.."
CORPUS=${LINKBASE_CORPUS:-../shared/corpus}
{
  if [ -d "$CORPUS/mime" ]; then
    find "$CORPUS/mime" -type f \( -name '*.mhtml' -o -name '*.mht' \) | LC_ALL=C sort
  fi
  find fixtures -type f \( -name '*.html' -o -name '*.xhtml' -o -name '*.css' -o -name '*.eml' \) | LC_ALL=C sort
} | while IFS= read -r f; do realpath "$f"; done
