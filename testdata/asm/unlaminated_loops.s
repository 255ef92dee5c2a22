# Loops on the Intel host (Redwood Cove, taken as MTL-P) with and without an un-laminated
# µop (a lead, not modelled; scripts/README.md "The Intel host"). `suaca profile --processes
# 3 --arch MTL-P` on the Intel host (CPUID family 6 model 167 reported, 2026-11-28, one run)
# measured the cycles per iteration noted before each loop. Regions 0-10: k nops, `add rax,
# 32; cmp rdi, rax; jne` (k + 2 fused µops): 0.50, 0.50, 0.67, 0.84, 1.01, 1.17, 1.34, 1.51,
# 1.67, 1.84, 2.01, i.e. n/6 from n = 3 as MTL-P predicts (the issue width; the model has no
# LSD for Golden Cove). Regions 11-19: the same with an indexed `vaddps ymm1, ymm2, [rsi+rax]`
# first (un-laminated: 2 issue slots, k + 4 in all): 1.00, 1.00, 1.02, 1.34, 1.51, 2.01, 1.96,
# 1.95, 1.95 where the issue width predicts 0.67, 0.84, 1.00, 1.17, 1.33, 1.50, 1.67, 1.84,
# 2.00 — as if such a loop were delivered ceil(n·u / 6) cycles per u iterations with u = 1
# up to 6 slots and from 9, u = 3 at 7 and u = 2 at 8 (no rule found that gives both sets).
# The same loop with a base-only `vaddps ymm1, ymm2, [rsi]` (stepping rsi, not
# un-laminated) reads 0.70 against 0.67.
        .intel_syntax noprefix
        .text
        .globl f
        .p2align 6
f:
# nops 0
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        add rax, 32
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# nops 1
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        nop
        add rax, 32
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# nops 2
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        nop
        nop
        add rax, 32
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# nops 3
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
# nops 4
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
# nops 5
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
# nops 6
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
# nops 7
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
# nops 8
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
# nops 9
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
# nops 10
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
# unlaminated + nops 0
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vaddps ymm1, ymm2, ymmword ptr [rsi+rax]
        add rax, 32
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# unlaminated + nops 1
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vaddps ymm1, ymm2, ymmword ptr [rsi+rax]
        nop
        add rax, 32
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# unlaminated + nops 2
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
# unlaminated + nops 3
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
# unlaminated + nops 4
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
# unlaminated + nops 5
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
# unlaminated + nops 6
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
# unlaminated + nops 7
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
# unlaminated + nops 8
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
