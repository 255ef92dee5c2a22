# Zen 4 loops with an integer operation that waits for two loads (lead, not modelled;
# scripts/README.md "Loop benchmark"). Each loop closes with `add rax, 1; cmp rbx, rax;
# jne`. `suaca profile --processes 5` on Zen 4 (family 25 model 17, 2026-11-26) measured
# the cycles per iteration noted before each region (every process within 0.04 of the
# median). suaca predicts 1.00 for all but region 2 (1.20): the operation fed by two loads
# costs a quarter to a third of a cycle more; fed by one load, or in xmm, nothing.
        .intel_syntax noprefix
        .text
        .globl f
        .p2align 6
f:
# 1.35: gcc -O2 add_i32's body: load, add with a load, indexed store of the sum
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        mov r8d, [rdx+rax*4]
        add r8d, [rsi+rax*4]
        mov [rdi+rax*4], r8d
        add rax, 1
        cmp rbx, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.36: the same with a base-only stepped store
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        mov r8d, [rdx+rax*4]
        add r8d, [rsi+rax*4]
        mov [rdi], r8d
        add rdi, 4
        add rax, 1
        cmp rbx, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.24: two loads, their sum in a register, indexed store (whole-dispatch 1.20)
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        mov r8d, [rdx+rax*4]
        mov r9d, [rsi+rax*4]
        add r8d, r9d
        mov [rdi+rax*4], r8d
        add rax, 1
        cmp rbx, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.00: one load plus 1, indexed store
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        mov r8d, [rdx+rax*4]
        add r8d, 1
        mov [rdi+rax*4], r8d
        add rax, 1
        cmp rbx, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.00: the first load stored directly
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        mov r8d, [rdx+rax*4]
        mov r9d, [rsi+rax*4]
        mov [rdi+rax*4], r8d
        add rax, 1
        cmp rbx, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.00: the xmm twin: movss, addss with a load, movss store
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        movss xmm1, [rdx+rax*4]
        addss xmm1, [rsi+rax*4]
        movss [rdi+rax*4], xmm1
        add rax, 1
        cmp rbx, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
        ret
