#!/usr/bin/env bash
# Peak resident set size (and wall time) of suaca on the issue #9 cases (see scripts/README.md,
# "Peak memory"):
#
#   scripts/rss.sh
#
# 1. loading the full reconstruction ../shared/data/uops/instructions.xml.zst for SKL: cold
#    (builds the index of every arch) and warm (reads the cached SKL index);
# 2. a 10,000-instruction region (a mix of ALU, load, shift, cmov, imul, lea, jnz, vector
#    instructions), default analysis (all what-if runs) at --loop 2;
# 3. 10^6 iterations of a 3-instruction loop (add, shl by cl, cmovnz; 4 runs).
#
# Each figure is getrusage(RUSAGE_CHILDREN).ru_maxrss of one suaca process
# (examples/peak_rss.rs), in a fresh SUACA_HOME. Builds in release mode.
set -euo pipefail
cd "$(dirname "$0")/.."
xml=../shared/data/uops/instructions.xml.zst
if [[ ! -f $xml ]]; then
  echo "rss.sh: $xml is absent (see ../shared/data/README): skipping"
  exit 0
fi
cargo build --release --quiet --bin suaca --example peak_rss
suaca=target/release/suaca
rss=target/release/examples/peak_rss
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
export SUACA_HOME=$home
unset SUACA_UOPS_XML

# 10 instructions (36 bytes), 1,000 times.
mix='\x48\x01\xd8\x48\x8b\x46\x08\x48\xd3\xe0\x48\x0f\x45\xc3\x48\xf7\xe9'
mix+='\x48\x83\xc1\x08\x75\x00\x48\x8d\x53\x08\xc5\xf1\x58\xc2\x48\x31\xc9'
for _ in $(seq 1000); do printf "$mix"; done >"$home/region.bin"

measure() {
  printf '%-48s ' "$1"
  shift
  "$rss" "$suaca" --uops-xml "$xml" --arch SKL "$@"
}
measure "full reconstruction, cold (index build)" --hex 4801d8 --loop 1 -p
measure "full reconstruction, warm" --hex 4801d8 --loop 1 -p
measure "10k-instruction region, --loop 2" --raw "$home/region.bin" --loop 2
measure "10^6 iterations of a 3-instruction loop" --hex "4801d8 48d3e0 480f45c3" --loop 1000000
