#!/usr/bin/env bash
# The loop accuracy benchmark (issue #14): suaca (ZEN4) and llvm-mca-19 (-mcpu=znver4)
# against the loops measured on this project's host, data/measured/ZEN4_loops.csv, without
# measuring again. See scripts/README.md ("Loop benchmark"). Extra arguments go to the
# example, e.g. `--no-mca`, `--worst 30`, `--csv FILE`; another host's set with
# `--arch ZEN3 --xml ../shared/data/uops/instructions.xml.zst`.
set -euo pipefail
cd "$(dirname "$0")/.."
exec cargo run --release --quiet --example loop_set -- accuracy "$@"
