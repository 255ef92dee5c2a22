# Loops on the Intel host (Redwood Cove, taken as MTL-P: data/arch/MTL-P.toml
# `front_end.split_loop_groups`, docs/model.md "Front end: loop mode") with and without a µop
# that splits at issue. `suaca profile --processes 3 --arch MTL-P` on the Intel host (CPUID
# family 6 model 167 reported, 2026-11-28, one run, with the loop kernel's lfence between
# runs) measured the cycles per iteration noted before each loop. k nops and `add rax, 32; cmp
# rdi, rax; jne` (k + 2 issue slots) run at slots / 6 from 3 slots on. With one or two indexed
# `vaddps ymm, ymm, [rsi+rax]` first (two slots, one decoder µop each) they run as if issued
# in groups that stop at the end of the body unrolled until the last group is at least half
# full: MTL-P predicts 1.00 for 4-6 slots, 4/3 for 7, 3/2 for 8, 2.00 for 9-12, 7/3 for 13,
# 5/2 for 14, 3.00 for 15-18, 10/3 for 19, 7/2 for 20, 4.00 for 24 and 5.00 for 30.
        .intel_syntax noprefix
        .text
        .globl f
        .p2align 6
f:
# 0.50: nops 0
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        add rax, 32
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 0.51: nops 1
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        nop
        add rax, 32
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 0.68: nops 2
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        nop
        nop
        add rax, 32
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 0.84: nops 3
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        nop
        nop
        nop
        add rax, 32
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.01: nops 4
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        nop
        nop
        nop
        nop
        add rax, 32
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.17: nops 5
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        nop
        nop
        nop
        nop
        nop
        add rax, 32
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.34: nops 6
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        nop
        nop
        nop
        nop
        nop
        nop
        add rax, 32
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.51: nops 7
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        add rax, 32
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.68: nops 8
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        add rax, 32
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.84: nops 9
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        add rax, 32
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 2.01: nops 10
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        add rax, 32
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.01: unlaminated + nops 0
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vaddps ymm1, ymm2, ymmword ptr [rsi+rax]
        add rax, 32
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.02: unlaminated + nops 1
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vaddps ymm1, ymm2, ymmword ptr [rsi+rax]
        nop
        add rax, 32
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.02: unlaminated + nops 2
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vaddps ymm1, ymm2, ymmword ptr [rsi+rax]
        nop
        nop
        add rax, 32
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.35: unlaminated + nops 3
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vaddps ymm1, ymm2, ymmword ptr [rsi+rax]
        nop
        nop
        nop
        add rax, 32
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.51: unlaminated + nops 4
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vaddps ymm1, ymm2, ymmword ptr [rsi+rax]
        nop
        nop
        nop
        nop
        add rax, 32
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 2.02: unlaminated + nops 5
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vaddps ymm1, ymm2, ymmword ptr [rsi+rax]
        nop
        nop
        nop
        nop
        nop
        add rax, 32
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 2.02: unlaminated + nops 6
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vaddps ymm1, ymm2, ymmword ptr [rsi+rax]
        nop
        nop
        nop
        nop
        nop
        nop
        add rax, 32
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 2.02: unlaminated + nops 7
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vaddps ymm1, ymm2, ymmword ptr [rsi+rax]
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        add rax, 32
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 2.02: unlaminated + nops 8
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vaddps ymm1, ymm2, ymmword ptr [rsi+rax]
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        add rax, 32
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 2.35: unlaminated + nops 9
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vaddps ymm1, ymm2, ymmword ptr [rsi+rax]
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        add rax, 32
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 2.52: unlaminated + nops 10
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vaddps ymm1, ymm2, ymmword ptr [rsi+rax]
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        add rax, 32
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 3.02: unlaminated + nops 11
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vaddps ymm1, ymm2, ymmword ptr [rsi+rax]
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        add rax, 32
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 3.02: unlaminated + nops 12
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vaddps ymm1, ymm2, ymmword ptr [rsi+rax]
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        add rax, 32
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 3.02: unlaminated + nops 13
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vaddps ymm1, ymm2, ymmword ptr [rsi+rax]
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        add rax, 32
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 3.02: unlaminated + nops 14
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vaddps ymm1, ymm2, ymmword ptr [rsi+rax]
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        add rax, 32
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 3.52: unlaminated + nops 15
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vaddps ymm1, ymm2, ymmword ptr [rsi+rax]
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        add rax, 32
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 3.51: unlaminated + nops 16
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vaddps ymm1, ymm2, ymmword ptr [rsi+rax]
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        add rax, 32
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 4.01: unlaminated + nops 20
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vaddps ymm1, ymm2, ymmword ptr [rsi+rax]
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        add rax, 32
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 5.02: unlaminated + nops 26
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vaddps ymm1, ymm2, ymmword ptr [rsi+rax]
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        add rax, 32
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.10: two unlaminated + nops 0
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vaddps ymm1, ymm2, ymmword ptr [rsi+rax]
        vaddps ymm3, ymm2, ymmword ptr [rcx+rax]
        add rax, 32
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.35: two unlaminated + nops 1
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vaddps ymm1, ymm2, ymmword ptr [rsi+rax]
        vaddps ymm3, ymm2, ymmword ptr [rcx+rax]
        nop
        add rax, 32
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.51: two unlaminated + nops 2
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vaddps ymm1, ymm2, ymmword ptr [rsi+rax]
        vaddps ymm3, ymm2, ymmword ptr [rcx+rax]
        nop
        nop
        add rax, 32
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 2.02: two unlaminated + nops 3
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vaddps ymm1, ymm2, ymmword ptr [rsi+rax]
        vaddps ymm3, ymm2, ymmword ptr [rcx+rax]
        nop
        nop
        nop
        add rax, 32
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 2.02: two unlaminated + nops 4
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vaddps ymm1, ymm2, ymmword ptr [rsi+rax]
        vaddps ymm3, ymm2, ymmword ptr [rcx+rax]
        nop
        nop
        nop
        nop
        add rax, 32
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 2.02: two unlaminated + nops 5
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vaddps ymm1, ymm2, ymmword ptr [rsi+rax]
        vaddps ymm3, ymm2, ymmword ptr [rcx+rax]
        nop
        nop
        nop
        nop
        nop
        add rax, 32
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 2.02: two unlaminated + nops 6
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vaddps ymm1, ymm2, ymmword ptr [rsi+rax]
        vaddps ymm3, ymm2, ymmword ptr [rcx+rax]
        nop
        nop
        nop
        nop
        nop
        nop
        add rax, 32
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 2.35: two unlaminated + nops 7
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vaddps ymm1, ymm2, ymmword ptr [rsi+rax]
        vaddps ymm3, ymm2, ymmword ptr [rcx+rax]
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        add rax, 32
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 2.52: two unlaminated + nops 8
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vaddps ymm1, ymm2, ymmword ptr [rsi+rax]
        vaddps ymm3, ymm2, ymmword ptr [rcx+rax]
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        add rax, 32
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
