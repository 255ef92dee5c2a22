# Zen 4's op cache in loops (data/arch/ZEN4.toml `uop_cache_whole_cycles`, docs/model.md "Front
# end: loop mode"). Each loop is limited by the 6-wide dispatch alone: independent `add`
# chains on general registers (4 ALUs) alternate with `vpaddd` chains (4 FP pipes), closed by
# `add rax, 1; cmp rax, rdx; jne`. `suaca profile --processes 5` on Zen 4 (family 25 model 17,
# 2026-11-26) measured the cycles per iteration noted before each region (the median; every
# process within 0.01 of it but one reading each in regions 1 and 2, 1.77 and 0.96).
# Regions 0-14: loops of 6 to 20 macro-ops (the fused compare and branch counted once).
# Up to 9 they run at 6 a cycle; 10, 11 and 12 take 2 cycles, not 10/6 or 11/6: the op cache
# delivers at most 9 a cycle and the taken back branch ends a cycle's delivery. Regions 7-14
# reach into a second 64-byte window (the compare, branch or last add) at no cost.
# Regions 15-28: a 7-macro-op loop (1.17 inside one window) placed so that a 64-byte
# boundary falls between or inside its instructions, down to between the compare and the
# branch: 2.00 each, a cycle per window touched.
        .intel_syntax noprefix
        .text
        .globl f
        .p2align 7
f:
        .p2align 6
# 1.00: 6 macro-ops
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        add r8, 1
        vpaddd xmm0, xmm0, xmm15
        add r9, 1
        vpaddd xmm1, xmm1, xmm15
        add rax, 1
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.17: 7 macro-ops
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        add r8, 1
        vpaddd xmm0, xmm0, xmm15
        add r9, 1
        vpaddd xmm1, xmm1, xmm15
        add r10, 1
        add rax, 1
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.33: 8 macro-ops
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        add r8, 1
        vpaddd xmm0, xmm0, xmm15
        add r9, 1
        vpaddd xmm1, xmm1, xmm15
        add r10, 1
        vpaddd xmm2, xmm2, xmm15
        add rax, 1
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.50: 9 macro-ops
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        add r8, 1
        vpaddd xmm0, xmm0, xmm15
        add r9, 1
        vpaddd xmm1, xmm1, xmm15
        add r10, 1
        vpaddd xmm2, xmm2, xmm15
        add r11, 1
        add rax, 1
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 2.00: 10 macro-ops
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        add r8, 1
        vpaddd xmm0, xmm0, xmm15
        add r9, 1
        vpaddd xmm1, xmm1, xmm15
        add r10, 1
        vpaddd xmm2, xmm2, xmm15
        add r11, 1
        vpaddd xmm3, xmm3, xmm15
        add rax, 1
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 2.00: 11 macro-ops
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        add r8, 1
        vpaddd xmm0, xmm0, xmm15
        add r9, 1
        vpaddd xmm1, xmm1, xmm15
        add r10, 1
        vpaddd xmm2, xmm2, xmm15
        add r11, 1
        vpaddd xmm3, xmm3, xmm15
        add r12, 1
        add rax, 1
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 2.00: 12 macro-ops
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        add r8, 1
        vpaddd xmm0, xmm0, xmm15
        add r9, 1
        vpaddd xmm1, xmm1, xmm15
        add r10, 1
        vpaddd xmm2, xmm2, xmm15
        add r11, 1
        vpaddd xmm3, xmm3, xmm15
        add r12, 1
        vpaddd xmm4, xmm4, xmm15
        add rax, 1
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 2.17: 13 macro-ops
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        add r8, 1
        vpaddd xmm0, xmm0, xmm15
        add r9, 1
        vpaddd xmm1, xmm1, xmm15
        add r10, 1
        vpaddd xmm2, xmm2, xmm15
        add r11, 1
        vpaddd xmm3, xmm3, xmm15
        add r12, 1
        vpaddd xmm4, xmm4, xmm15
        add r13, 1
        add rax, 1
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 2.33: 14 macro-ops
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        add r8, 1
        vpaddd xmm0, xmm0, xmm15
        add r9, 1
        vpaddd xmm1, xmm1, xmm15
        add r10, 1
        vpaddd xmm2, xmm2, xmm15
        add r11, 1
        vpaddd xmm3, xmm3, xmm15
        add r12, 1
        vpaddd xmm4, xmm4, xmm15
        add r13, 1
        vpaddd xmm5, xmm5, xmm15
        add rax, 1
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 2.50: 15 macro-ops
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        add r8, 1
        vpaddd xmm0, xmm0, xmm15
        add r9, 1
        vpaddd xmm1, xmm1, xmm15
        add r10, 1
        vpaddd xmm2, xmm2, xmm15
        add r11, 1
        vpaddd xmm3, xmm3, xmm15
        add r12, 1
        vpaddd xmm4, xmm4, xmm15
        add r13, 1
        vpaddd xmm5, xmm5, xmm15
        add r14, 1
        add rax, 1
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 2.67: 16 macro-ops
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        add r8, 1
        vpaddd xmm0, xmm0, xmm15
        add r9, 1
        vpaddd xmm1, xmm1, xmm15
        add r10, 1
        vpaddd xmm2, xmm2, xmm15
        add r11, 1
        vpaddd xmm3, xmm3, xmm15
        add r12, 1
        vpaddd xmm4, xmm4, xmm15
        add r13, 1
        vpaddd xmm5, xmm5, xmm15
        add r14, 1
        vpaddd xmm6, xmm6, xmm15
        add rax, 1
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 2.83: 17 macro-ops
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        add r8, 1
        vpaddd xmm0, xmm0, xmm15
        add r9, 1
        vpaddd xmm1, xmm1, xmm15
        add r10, 1
        vpaddd xmm2, xmm2, xmm15
        add r11, 1
        vpaddd xmm3, xmm3, xmm15
        add r12, 1
        vpaddd xmm4, xmm4, xmm15
        add r13, 1
        vpaddd xmm5, xmm5, xmm15
        add r14, 1
        vpaddd xmm6, xmm6, xmm15
        add r15, 1
        add rax, 1
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 3.00: 18 macro-ops
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        add r8, 1
        vpaddd xmm0, xmm0, xmm15
        add r9, 1
        vpaddd xmm1, xmm1, xmm15
        add r10, 1
        vpaddd xmm2, xmm2, xmm15
        add r11, 1
        vpaddd xmm3, xmm3, xmm15
        add r12, 1
        vpaddd xmm4, xmm4, xmm15
        add r13, 1
        vpaddd xmm5, xmm5, xmm15
        add r14, 1
        vpaddd xmm6, xmm6, xmm15
        add r15, 1
        vpaddd xmm7, xmm7, xmm15
        add rax, 1
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 3.17: 19 macro-ops
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        add r8, 1
        vpaddd xmm0, xmm0, xmm15
        add r9, 1
        vpaddd xmm1, xmm1, xmm15
        add r10, 1
        vpaddd xmm2, xmm2, xmm15
        add r11, 1
        vpaddd xmm3, xmm3, xmm15
        add r12, 1
        vpaddd xmm4, xmm4, xmm15
        add r13, 1
        vpaddd xmm5, xmm5, xmm15
        add r14, 1
        vpaddd xmm6, xmm6, xmm15
        add r15, 1
        vpaddd xmm7, xmm7, xmm15
        add rbx, 1
        add rax, 1
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 3.33: 20 macro-ops
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        add r8, 1
        vpaddd xmm0, xmm0, xmm15
        add r9, 1
        vpaddd xmm1, xmm1, xmm15
        add r10, 1
        vpaddd xmm2, xmm2, xmm15
        add r11, 1
        vpaddd xmm3, xmm3, xmm15
        add r12, 1
        vpaddd xmm4, xmm4, xmm15
        add r13, 1
        vpaddd xmm5, xmm5, xmm15
        add r14, 1
        vpaddd xmm6, xmm6, xmm15
        add r15, 1
        vpaddd xmm7, xmm7, xmm15
        add rbx, 1
        vpaddd xmm8, xmm8, xmm15
        add rax, 1
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 7
        .skip 8, 0x90
# 1.17: inside one window
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        add r8, 1
        vpaddd xmm1, xmm1, xmm2
        add r9, 1
        vpaddd xmm3, xmm3, xmm2
        add r10, 1
        add rax, 1
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 7
        .skip 52, 0x90
# 2.00: a window boundary after instruction 1
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        add r8, 1
        vpaddd xmm1, xmm1, xmm2
        add r9, 1
        vpaddd xmm3, xmm3, xmm2
        add r10, 1
        add rax, 1
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 7
        .skip 54, 0x90
# 2.00: a window boundary inside instruction 2
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        add r8, 1
        vpaddd xmm1, xmm1, xmm2
        add r9, 1
        vpaddd xmm3, xmm3, xmm2
        add r10, 1
        add rax, 1
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 7
        .skip 48, 0x90
# 2.00: a window boundary after instruction 2
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        add r8, 1
        vpaddd xmm1, xmm1, xmm2
        add r9, 1
        vpaddd xmm3, xmm3, xmm2
        add r10, 1
        add rax, 1
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 7
        .skip 50, 0x90
# 2.00: a window boundary inside instruction 3
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        add r8, 1
        vpaddd xmm1, xmm1, xmm2
        add r9, 1
        vpaddd xmm3, xmm3, xmm2
        add r10, 1
        add rax, 1
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 7
        .skip 44, 0x90
# 2.00: a window boundary after instruction 3
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        add r8, 1
        vpaddd xmm1, xmm1, xmm2
        add r9, 1
        vpaddd xmm3, xmm3, xmm2
        add r10, 1
        add rax, 1
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 7
        .skip 46, 0x90
# 2.00: a window boundary inside instruction 4
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        add r8, 1
        vpaddd xmm1, xmm1, xmm2
        add r9, 1
        vpaddd xmm3, xmm3, xmm2
        add r10, 1
        add rax, 1
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 7
        .skip 40, 0x90
# 2.00: a window boundary after instruction 4
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        add r8, 1
        vpaddd xmm1, xmm1, xmm2
        add r9, 1
        vpaddd xmm3, xmm3, xmm2
        add r10, 1
        add rax, 1
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 7
        .skip 42, 0x90
# 2.00: a window boundary inside instruction 5
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        add r8, 1
        vpaddd xmm1, xmm1, xmm2
        add r9, 1
        vpaddd xmm3, xmm3, xmm2
        add r10, 1
        add rax, 1
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 7
        .skip 36, 0x90
# 2.00: a window boundary after instruction 5
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        add r8, 1
        vpaddd xmm1, xmm1, xmm2
        add r9, 1
        vpaddd xmm3, xmm3, xmm2
        add r10, 1
        add rax, 1
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 7
        .skip 38, 0x90
# 2.00: a window boundary inside instruction 6
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        add r8, 1
        vpaddd xmm1, xmm1, xmm2
        add r9, 1
        vpaddd xmm3, xmm3, xmm2
        add r10, 1
        add rax, 1
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 7
        .skip 32, 0x90
# 2.00: a window boundary after instruction 6
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        add r8, 1
        vpaddd xmm1, xmm1, xmm2
        add r9, 1
        vpaddd xmm3, xmm3, xmm2
        add r10, 1
        add rax, 1
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 7
        .skip 34, 0x90
# 2.00: a window boundary inside instruction 7
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        add r8, 1
        vpaddd xmm1, xmm1, xmm2
        add r9, 1
        vpaddd xmm3, xmm3, xmm2
        add r10, 1
        add rax, 1
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 7
        .skip 29, 0x90
# 2.00: a window boundary between the compare and the branch
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        add r8, 1
        vpaddd xmm1, xmm1, xmm2
        add r9, 1
        vpaddd xmm3, xmm3, xmm2
        add r10, 1
        add rax, 1
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        ret
