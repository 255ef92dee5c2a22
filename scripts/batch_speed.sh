#!/usr/bin/env bash
# Blocks per second of `suaca batch` against llvm-mca-19 -iterations=100 in ONE process, over
# the same blocks (issue #6 item 2; see scripts/README.md, "Batch speed").
#
#   scripts/batch_speed.sh [BLOCKS] [REPEAT] [RUNS]
#
# BLOCKS  BHive-layout CSV or hex-per-line file. Default: 5,000 distinct blocks of BHive's
#         sources (every 25th distinct block of ../shared/data/bhive/
#         bhive_sources_and_may_alias.tar.xz); without the tarball, bhive_dev.csv.
# REPEAT  how many times the block list is repeated (default 1; suaca has no cache of
#         results, so repeating only lengthens the run)
# RUNS    timed runs of each tool; the fastest counts (default 3)
# Environment: LLVM_MCA (default llvm-mca-19), SUACA_BIN (default ./target/release/suaca).
#
# Both tools predict every block for SKL (llvm-mca -mcpu=skylake). llvm-mca gets the blocks
# as AT&T assembly (iced-x86's GAS formatter), one `# LLVM-MCA-BEGIN/END` region per block,
# and prints only its summary view (its cheapest output); suaca reads the hex lines and
# writes its full CSV. suaca's time includes loading its data (warm index cache).
set -euo pipefail
cd "$(dirname "$0")/.."
repeat=${2:-1}
runs=${3:-3}
mca=${LLVM_MCA:-llvm-mca-19}
bin=${SUACA_BIN:-./target/release/suaca} # another build of suaca to time, e.g. a branch's
work=target/batch-speed
mkdir -p "$work"
tarball=../shared/data/bhive/bhive_sources_and_may_alias.tar.xz
if [[ -n ${1:-} ]]; then
  csv=$1
elif [[ -f $tarball ]]; then
  csv=$work/distinct.txt
  [[ -s $csv ]] || tar -xJOf "$tarball" --wildcards 'sources/*.csv' | cut -d, -f1 \
    | LC_ALL=C sort -u | awk 'NR % 25 == 0' | head -n 5000 > "$csv"
else
  csv=../shared/data/bhive/bhive_dev.csv
fi
if [[ ! -f $csv ]]; then echo "batch_speed: skipped: $csv is missing"; exit 0; fi
xml=../shared/data/uops/instructions.xml.zst
export SUACA_HOME=$PWD/$work/home
cargo build --release --quiet --bin suaca --example accuracy
./target/release/examples/accuracy --csv "$csv" --emit-speed-inputs "$work" --repeat "$repeat" >/dev/null
blocks=$(wc -l < "$work/blocks.txt")
suaca=("$bin" batch --uops-xml "$xml" --arch SKL -i "$work/blocks.txt" -o /dev/null)
echo 4801d8 | "${suaca[@]:0:6}" >/dev/null # warm the index cache

best() { # best wall-clock seconds of $runs runs of "$@"
  local b=""
  for _ in $(seq "$runs"); do
    local t0 t1
    t0=$(date +%s.%N); "$@" >/dev/null 2>&1; t1=$(date +%s.%N)
    b=$(echo "$t0 $t1 $b" | awk '{d=$2-$1; if ($3=="" || d<$3) print d; else print $3}')
  done
  echo "$b"
}
rate() { awk -v n="$blocks" -v t="$1" 'BEGIN{printf "%.0f", n/t}'; }

echo "blocks: $blocks ($(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg))"
t_all=$(best "${suaca[@]}")
t_one=$(best "${suaca[@]}" --jobs 1)
echo "suaca batch (all cores):      $t_all s  $(rate "$t_all") blocks/s"
echo "suaca batch --jobs 1:         $t_one s  $(rate "$t_one") blocks/s"
if command -v "$mca" >/dev/null; then
  flags=(-mcpu=skylake -iterations=100 -skip-unsupported-instructions=any)
  t_sum=$(best "$mca" "${flags[@]}" -instruction-info=false -resource-pressure=false "$work/blocks.s")
  t_def=$(best "$mca" "${flags[@]}" "$work/blocks.s")
  echo "$mca (summary view only):  $t_sum s  $(rate "$t_sum") blocks/s"
  echo "$mca (default views):      $t_def s  $(rate "$t_def") blocks/s"
  awk -v a="$t_all" -v b="$t_sum" 'BEGIN{printf "ratio suaca (all cores) / llvm-mca (summary): %.2fx (target >= 10x)\n", b/a}'
else
  echo "$mca is not installed"
fi
