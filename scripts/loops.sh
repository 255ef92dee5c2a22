#!/usr/bin/env bash
# The loop benchmark's measurement (issue #14): compiles our C kernels (benches/loops/*.c)
# with gcc and clang in every variant, picks each variant's main single-block loop
# (examples/loop_set/pick.rs), measures the distinct loops on this host with
# `suaca profile --batch` in separate passes (median) and writes data/measured/ARCH_loops.csv,
# ARCH the host's (ZEN4_loops.csv on Zen 4). See scripts/README.md ("Loop benchmark") and
# data/measured/README.md ("ZEN4 loop set").
#
#   [LOOP_PASSES=5] scripts/loops.sh [--no-measure]
#
# --no-measure stops after picking (target/loops/set.csv, hex.txt, skipped.csv). A kernel
# that fails to compile, a variant without a loop, a loop that profile refuses or that
# faults is logged and the run goes on. Timing runs hold /work/wt/timing.lock when it exists.
set -euo pipefail
cd "$(dirname "$0")/.."
measure=1
[ "${1:-}" = "--no-measure" ] && measure=0
for t in gcc clang; do
  command -v "$t" >/dev/null 2>&1 || { echo "loops: $t is required"; exit 1; }
done
dir=target/loops
rm -rf "$dir/obj"
mkdir -p "$dir/obj"

# What -march=native resolves to, per compiler (recorded, since it depends on the host).
# (No early exit in the pipes: with pipefail a SIGPIPE would end the script.)
native_gcc=$(gcc -march=native -Q --help=target | awk '$1 == "-march=" && !m { m = $2 } END { print m }')
native_clang=$(clang -march=native -### -x c -c /dev/null 2>&1 |
  awk '{ for (i = 1; i < NF; i++) if ($i == "\"-target-cpu\"" && !m) m = $(i + 1) } END { gsub(/"/, "", m); print m }')
echo "variant,compiler,flags,march" > "$dir/variants.csv.tmp"
failed=0
for cc in gcc clang; do
  # gcc -dumpversion prints the major version only.
  if [ "$cc" = gcc ]; then version="gcc $(gcc -dumpfullversion)"; else version="clang $(clang -dumpversion)"; fi
  for opt in O2 O3; do
    for march in x86-64-v2 x86-64-v3 native; do
      short=${march#x86-64-}
      resolved=$march
      if [ "$march" = native ]; then
        if [ "$cc" = gcc ]; then resolved=$native_gcc; else resolved=$native_clang; fi
      fi
      # -ffast-math only for the reductions, where it allows reassociation.
      for fm in "" "-ffast-math"; do
        variant="$cc-$opt-$short${fm:+-fastmath}"
        flags="-$opt -march=$march${fm:+ $fm}"
        mkdir -p "$dir/obj/$variant"
        echo "$variant,$version,$flags,$resolved" >> "$dir/variants.csv.tmp"
        for src in benches/loops/*.c; do
          name=$(basename "$src" .c)
          [ -n "$fm" ] && [ "$name" != reductions ] && continue
          # shellcheck disable=SC2086
          if ! "$cc" $flags -std=c11 -Wall -c "$src" -o "$dir/obj/$variant/$name.o"; then
            echo "loops: $cc $flags failed on $src (left out)"
            failed=$((failed + 1))
          fi
        done
      done
    done
  done
done
mv "$dir/variants.csv.tmp" "$dir/variants.csv"
echo "loops: compiled ($failed failures); -march=native is $native_gcc (gcc), $native_clang (clang)"

cargo build --release --quiet --bin suaca --example loop_set
target/release/examples/loop_set pick --dir "$dir" 2> "$dir/pick.log"
[ "$measure" = 1 ] || exit 0
# The set is the host's: a CPU suaca does not know has no arch to name it by.
target/release/examples/loop_set host-arch >/dev/null

lock() { if [ -e /work/wt/timing.lock ]; then flock /work/wt/timing.lock "$@"; else "$@"; fi; }
# Separate passes over every loop (LOOP_PASSES, default 5); a loop's measurement is the median
# of its passes, so that a burst of noise on the host during one pass stays out. A pass that
# the profiler refuses (its clock cross-check failed: the machine was busy) is run again, up
# to three times.
passes=${LOOP_PASSES:-5}
rm -f "$dir"/pass*.csv "$dir/measured.csv" "$dir/repeat.csv"
start=$(date +%s)
for k in $(seq 1 "$passes"); do
  for attempt in 1 2 3; do
    if lock target/release/suaca profile --batch "$dir/hex.txt" -o "$dir/pass$k.csv"; then
      break
    fi
    [ "$attempt" = 3 ] && { echo "loops: pass $k refused three times; measure on a quieter machine"; exit 1; }
    sleep 10
  done
done
end=$(date +%s)
echo "loops: $passes passes over $(wc -l < "$dir/hex.txt") loops in $((end - start)) s"
arch=$(target/release/examples/loop_set host-arch)
target/release/examples/loop_set publish --dir "$dir" --out "data/measured/${arch}_loops.csv"
