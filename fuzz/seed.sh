#!/usr/bin/env bash
# Fills fuzz/corpus/<target>/ with seeds from testdata/ (and ../shared when present).
# Usage: fuzz/seed.sh   (idempotent; the corpus directories are not committed)
set -euo pipefail
cd "$(dirname "$0")"
root=..
mkdir -p corpus/object corpus/pipeline corpus/xml corpus/hex_csv
# (a) object files of every format, the broken ones included.
for f in "$root"/testdata/obj/*/* "$root"/testdata/errors/*; do
  [ -f "$f" ] && cp "$f" "corpus/object/$(echo "${f#"$root"/testdata/}" | tr '/' '_')"
done
# (b) two option bytes + code: the raw test program, and the code of each BHive block.
for opts in '\x00\xff' '\x01\x00' '\x41\x02' '\xff\x03'; do
  { printf "$opts"; cat "$root/testdata/obj/branchy.bin"; } > "corpus/pipeline/branchy_$(printf '%s' "$opts" | tr -dc '0-9a-f')"
done
csv="$root/../shared/data/bhive/bhive_dev.csv"
if [ -f "$csv" ]; then
  head -n 200 "$csv" | cut -d, -f3 | { grep -E '^[0-9a-f]+$' || true; } | while read -r hex; do
    { printf '\x01\xff'; printf '%s' "$hex" | xxd -r -p; } > "corpus/pipeline/bhive_${hex:0:40}"
  done
fi
# (c) every XML fixture (the target also feeds each one through zstd).
cp "$root"/testdata/xml/*.xml corpus/xml/
# (d) hex lines and CSV blocks.
printf '4801d8\n0x48 01 d8\n48 01 D8,1.00\n' > corpus/hex_csv/simple
cp "$root"/testdata/batch/*.csv corpus/hex_csv/
if [ -f "$csv" ]; then
  head -n 100 "$csv" > corpus/hex_csv/bhive_header.csv
  head -n 100 "$csv" | cut -d, -f3- > corpus/hex_csv/bhive_head.csv
fi
echo "seeded: $(for t in object pipeline xml hex_csv; do printf '%s=%s ' "$t" "$(ls corpus/$t | wc -l)"; done)"
