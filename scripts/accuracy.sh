#!/usr/bin/env bash
# The accuracy benchmark (issue #6 item 3): suaca vs real BHive measurements, llvm-mca-19
# beside it; tables on stdout, plots and per-block CSV in target/accuracy/.
# See scripts/README.md ("Accuracy benchmark"). Extra arguments go to the example, e.g.
#   scripts/accuracy.sh --own measured-zen4.csv     # add our own ZEN4 measurements
#   scripts/accuracy.sh --no-mca --limit 50         # quick look
set -euo pipefail
cd "$(dirname "$0")/.."
exec cargo run --release --quiet --example accuracy -- "$@"
