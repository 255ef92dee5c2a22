#!/usr/bin/env bash
# Rebuilds every binary fixture under testdata/obj and testdata/errors from testdata/asm.
# Deterministic: no timestamps, build ids or absolute paths end up in the outputs.
# Tools (Debian bookworm): llvm-mc-19 (llvm-19), lld-link-19 and ld64.lld-19 (lld-19), gcc + GNU ld.
set -euo pipefail
cd "$(dirname "$0")"

MC=${MC:-llvm-mc-19}
LLD_LINK=${LLD_LINK:-lld-link-19}
LD64=${LD64:-ld64.lld-19}
CC=${CC:-gcc}

ELF=x86_64-pc-linux-gnu
COFF=x86_64-pc-windows-msvc
MACHO=x86_64-apple-macos
GNU_LD_FLAGS="-Wl,--build-id=none -Wl,-z,noseparate-code"

# Programs with well-formed regions: built in every format.
GOOD=(branchy mov6 stencil adc8 operands multi msvc undecodable)
# Error fixtures that are marked x86-64 code: ELF relocatable only.
BAD=(start_no_end stray_end nested empty_region data_markers no_markers no_code)

rm -rf obj errors
mkdir -p obj/elf obj/coff obj/macho obj/pe errors

for p in "${GOOD[@]}"; do
    "$MC" -filetype=obj -triple="$ELF" "asm/$p.s" -o "obj/elf/$p.o"
    "$MC" -filetype=obj -triple="$COFF" "asm/$p.s" -o "obj/coff/$p.obj"
    "$MC" -filetype=obj -triple="$MACHO" "asm/$p.s" -o "obj/macho/$p.o"
    # Linked ELF executable (entry = the program's symbol) and shared library; without
    # separate code pages the files stay under 5 KiB.
    "$CC" -nostdlib -static -Wl,-e,"$p" $GNU_LD_FLAGS -o "obj/elf/$p" "obj/elf/$p.o"
    "$CC" -shared -nostdlib $GNU_LD_FLAGS -o "obj/elf/lib$p.so" "obj/elf/$p.o"
done

# PE images and a Mach-O executable for the thesis §2 program and the two-region file.
for p in branchy multi; do
    "$LLD_LINK" /nologo /brepro /nodefaultlib /subsystem:console /entry:"$p" \
        /out:"obj/pe/$p.exe" "obj/coff/$p.obj"
    "$LLD_LINK" /nologo /brepro /nodefaultlib /dll /noentry /export:"$p" \
        /implib:"obj/pe/$p.lib" /out:"obj/pe/$p.dll" "obj/coff/$p.obj"
    rm -f "obj/pe/$p.lib"
    "$LD64" -arch x86_64 -platform_version macos 11.0 11.0 -e "$p" \
        -o "obj/macho/$p" "obj/macho/$p.o"
done

for p in "${BAD[@]}"; do
    "$MC" -filetype=obj -triple="$ELF" "asm/$p.s" -o "errors/$p.o"
done

# `suaca profile` fixtures: ELF relocatable objects only.
for p in profile faults loops loop_pick; do
    "$MC" -filetype=obj -triple="$ELF" "asm/$p.s" -o "obj/elf/$p.o"
done

# Another architecture: a valid AArch64 ELF object.
"$MC" -filetype=obj -triple=aarch64-linux-gnu asm/aarch64.s -o errors/aarch64.o

# C loops without markers (tests/cli/unmarked_loops.rs): gcc -O2 -g, as an object and as the
# assembly text gcc writes; the source directory mapped to `.` so no absolute path remains.
"$CC" -O2 -g -fdebug-prefix-map="$PWD"=. -c c/unmarked.c -o obj/elf/unmarked_g.o
"$CC" -O2 -g -fdebug-prefix-map="$PWD"=. -S c/unmarked.c -o text/unmarked_g.s

# Not an object file at all.
printf 'this is a text file, not an object file\n' > errors/not_object.txt

# A valid ELF object cut after 100 bytes: the section header table is gone.
head -c 100 obj/elf/branchy.o > errors/truncated.o

# A valid ELF object whose e_shoff (offset 0x28, 8 bytes LE) points far past the end.
cp obj/elf/branchy.o errors/corrupt_shdr.o
printf '\x00\x00\x00\x00\xff\x00\x00\x00' |
    dd of=errors/corrupt_shdr.o bs=1 seek=40 conv=notrunc status=none

# Raw and hex inputs: the bytes of branchy's region (mov rax,1 ... add rbx,rbx).
printf '\x48\xc7\xc0\x01\x00\x00\x00\x48\x83\xf9\x00\x75\x05\x48\x01\xc3\xeb\x03\x48\x01\xc3\x48\x01\xdb' \
    > obj/branchy.bin
