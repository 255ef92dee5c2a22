# Immediate adds beside four register adds on the Intel host (Redwood Cove, taken as MTL-P;
# a lead, not modelled: scripts/README.md "Where the rest is"). uops.info's MTL-P data has
# `add r64, imm8` (and sub, inc, dec, lea with base and displacement) without a µop, as
# the renamer resolves them. `suaca profile --processes 3 --arch MTL-P` on the Intel host
# (CPUID family 6 model 167 reported, 2026-11-28, two runs) measured the cycles per
# iteration noted before each loop: beside four `add r, r` the loop counter's `add rax,
# 32` (or `sub rax, -32`, `inc rax`) costs a µop on the five ALU ports (1.20-1.21, the
# five ports' bound for six µops), `lea rax, [rax+32]` does not (1.01), four immediate adds
# beside it cost nothing (1.01). MTL-P takes every such add as free (1.00). Without an
# immediate add the four register adds and `dec r15; jne` read 1.32, as MTL-P's port
# binding at issue predicts (1.34), and a `lea` added makes them 1.01. Taking the
# adds a compare reads as executed was tried (one-off, not kept): the loop set went from
# 3.73% to 6.64%, its sub-cycle streams held at the counter's latency.
        .intel_syntax noprefix
        .text
        .globl f
        .p2align 6
f:
# 1.21: four register adds; add rax, 32; cmp; jne
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        add r9, r12
        add r10, r12
        add r11, r12
        add r13, r12
        add rax, 32
        cmp rax, r8
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.01: the same with lea rax, [rax+32]
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        add r9, r12
        add r10, r12
        add r11, r12
        add r13, r12
        lea rax, [rax+32]
        cmp rax, r8
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.21: the same with sub rax, -32
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        add r9, r12
        add r10, r12
        add r11, r12
        add r13, r12
        sub rax, -32
        cmp rax, r8
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.20: the same with inc rax
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        add r9, r12
        add r10, r12
        add r11, r12
        add r13, r12
        inc rax
        cmp rax, r8
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.26-1.27: the same with add rax, 512 (a 32-bit immediate)
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        add r9, r12
        add r10, r12
        add r11, r12
        add r13, r12
        add rax, 512
        cmp rax, r8
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.01: four immediate adds; add rax, 32; cmp; jne
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        add r9, 1
        add r10, 1
        add r11, 1
        add r13, 1
        add rax, 32
        cmp rax, r8
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.32-1.33: four register adds; dec r15; jne (no immediate add)
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        add r9, r12
        add r10, r12
        add r11, r12
        add r13, r12
        dec r15
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.01: four register adds; lea rax, [rax+32]; dec r15; jne
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        add r9, r12
        add r10, r12
        add r11, r12
        add r13, r12
        lea rax, [rax+32]
        dec r15
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
