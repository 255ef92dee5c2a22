#!/usr/bin/env bash
# Start-up time and peak memory of the README's main job on a warm cache (issue #16 item 6;
# see scripts/README.md, "Start-up"):
#
#   scripts/startup.sh [RUNS]        # default 50 runs per case
#
# 1. the embedded ZEN4 data: `suaca --arch ZEN4 --hex 4801c3`;
# 2. the same with `--uops-xml ../shared/data/uops/instructions.xml.zst`, for SKL and ZEN4
#    (skipped with a message when ../shared is absent).
#
# Each case runs once in a fresh SUACA_HOME to build the index cache, then RUNS times timed
# (wall clock, bash's EPOCHREALTIME: no process is started for the clock) and RUNS times
# under `/usr/bin/time -f %M` (peak RSS). Printed per case: the median, fastest and slowest
# wall time, the mean CPU time (user + system, from bash's `times`: steadier than the wall
# time on a loaded machine), and the largest peak RSS. Builds in release mode
# (SUACA_BIN=PATH times another binary instead, e.g. an older build).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-50}
if [[ -n ${SUACA_BIN:-} ]]; then
  suaca=$SUACA_BIN
else
  cargo build --release --quiet --bin suaca
  suaca=target/release/suaca
fi
[[ -x /usr/bin/time ]] || { echo "startup.sh: /usr/bin/time (GNU time) is required"; exit 1; }
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
export SUACA_HOME=$home
unset SUACA_UOPS_XML

# Microseconds since the epoch.
now_us() { local t=${EPOCHREALTIME/./}; echo $((10#$t)); }

# Sets cpu_us to the CPU time (user + system) of this shell's finished children so far, in
# microseconds (bash's `times`: its second line, e.g. `0m1.234s 0m0.567s`). Called as is, not
# in `$(...)`: a subshell has no children.
children_cpu() {
  local line m1 s1 m2 s2
  times >"$home/times"
  line=$(tail -n 1 "$home/times")
  cpu_us=0
  [[ $line =~ ([0-9]+)m([0-9]+)\.([0-9]+)s\ ([0-9]+)m([0-9]+)\.([0-9]+)s ]] || return 0
  m1=${BASH_REMATCH[1]} s1=$((10#${BASH_REMATCH[2]} * 1000 + 10#${BASH_REMATCH[3]}))
  m2=${BASH_REMATCH[4]} s2=$((10#${BASH_REMATCH[5]} * 1000 + 10#${BASH_REMATCH[6]}))
  cpu_us=$(((m1 * 60000 + s1 + m2 * 60000 + s2) * 1000))
}

case_() {
  local what=$1
  shift
  # Build the cache (and check that the command works) before timing.
  "$suaca" "$@" >/dev/null
  local walls=() rss=0 i t0 t1 kb cpu0 cpu1
  children_cpu
  cpu0=$cpu_us
  for ((i = 0; i < runs; i++)); do
    t0=$(now_us)
    "$suaca" "$@" >/dev/null
    t1=$(now_us)
    walls+=($((t1 - t0)))
  done
  children_cpu
  cpu1=$cpu_us
  for ((i = 0; i < runs; i++)); do
    /usr/bin/time -f %M -o "$home/rss" "$suaca" "$@" >/dev/null
    kb=$(tail -n 1 "$home/rss")
    ((kb > rss)) && rss=$kb
  done
  mapfile -t walls < <(printf '%s\n' "${walls[@]}" | sort -n)
  local n=${#walls[@]} median
  if ((n % 2)); then
    median=${walls[n / 2]}
  else
    median=$(((walls[n / 2 - 1] + walls[n / 2]) / 2))
  fi
  printf '%-18s wall median %5.1f ms (min %.1f, max %.1f)   CPU %4.1f ms   peak RSS %4.1f MB   (%d runs)\n' \
    "$what" "$(bc -l <<<"$median / 1000")" "$(bc -l <<<"${walls[0]} / 1000")" \
    "$(bc -l <<<"${walls[n - 1]} / 1000")" "$(bc -l <<<"($cpu1 - $cpu0) / $runs / 1000")" \
    "$(bc -l <<<"$rss / 1024")" "$runs"
}

case_ "embedded ZEN4" --arch ZEN4 --hex 4801c3
xml=../shared/data/uops/instructions.xml.zst
if [[ -f $xml ]]; then
  case_ "--uops-xml, SKL" --uops-xml "$xml" --arch SKL --hex 4801c3
  case_ "--uops-xml, ZEN4" --uops-xml "$xml" --arch ZEN4 --hex 4801c3
else
  echo "startup.sh: $xml is absent (see ../shared/data/README): skipping the --uops-xml cases"
fi
