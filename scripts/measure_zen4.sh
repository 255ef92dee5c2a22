#!/usr/bin/env bash
# Measures the ZEN4 block set on this machine (issue #6 item 3) and writes the keyed file we
# commit, data/measured/zen4_blocks.csv (our measurements only; the blocks' bytes stay in
# ../shared). See data/measured/README.md ("ZEN4 block set") for what it holds.
#
#   scripts/measure_zen4.sh [COUNT] [REPEAT]
#   PASSES=3 scripts/measure_zen4.sh [COUNT]
#
# COUNT blocks (default 2000) of BHive's sources, chosen by key; the first REPEAT of them
# (default 300) are measured a second time, in a separate run, for reproducibility. With
# PASSES=N (N >= 2) the whole set is measured N times instead and each block's value is the
# median of its passes (a burst of noise from the VM's host slows every process of a pass).
# Timing runs hold /work/wt/timing.lock when it exists (machines shared with other timing
# jobs).
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-2000}
repeat=${2:-300}
tar=../shared/data/bhive/bhive_sources_and_may_alias.tar.xz
[ -f "$tar" ] || { echo "measure_zen4: skipped: $tar is missing"; exit 0; }
work=target/zen4
mkdir -p "$work"

cargo build --release --quiet --bin suaca --example zen4_set
bin=target/release/suaca
lock() { if [ -e /work/wt/timing.lock ]; then flock /work/wt/timing.lock "$@"; else "$@"; fi; }

target/release/examples/zen4_set select --tar "$tar" --count "$count" --out "$work/blocks.txt"
passes=${PASSES:-1}
if [ "$passes" -ge 2 ]; then
    files=()
    start=$(date +%s)
    for p in $(seq 1 "$passes"); do
        lock "$bin" profile --batch "$work/blocks.txt" -o "$work/pass$p.csv"
        files+=("$work/pass$p.csv")
    done
    echo "measured $count blocks $passes times in $(($(date +%s) - start)) s"
    target/release/examples/zen4_set publish --passes "$(IFS=,; echo "${files[*]}")" \
        --out data/measured/zen4_blocks.csv
    exit 0
fi
head -n "$repeat" "$work/blocks.txt" > "$work/repeat.txt"
start=$(date +%s)
lock "$bin" profile --batch "$work/blocks.txt" -o "$work/run1.csv"
mid=$(date +%s)
lock "$bin" profile --batch "$work/repeat.txt" -o "$work/run2.csv"
end=$(date +%s)
echo "measured $count blocks in $((mid - start)) s, the repeat of $repeat in $((end - mid)) s"
target/release/examples/zen4_set publish --measured "$work/run1.csv" --repeat "$work/run2.csv" \
    --out data/measured/zen4_blocks.csv
