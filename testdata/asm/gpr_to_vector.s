# Moves from a GPR into a vector register on Zen 4, unrolled (docs/model.md, vector-to-GPR
# moves; not modelled). `suaca profile --processes 3` on Zen 4 (family 25 model 17, 2026-11-26)
# measured the cycles per copy noted before each region: one such move a cycle (the data's
# ports give 0.50 and 1.00 for the first and last), not holding the ALUs (1.25 with four
# adds, as its ALU µop predicts).
        .intel_syntax noprefix
        .text
        .globl f
        .p2align 6
f:
# 1.00: vmovq xmm0, r8
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        vmovq xmm0, r8
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.25: vmovq xmm0, r8; add r9, 1; add r10, 1; add r11, 1; add r12, 1
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        vmovq xmm0, r8
        add r9, 1
        add r10, 1
        add r11, 1
        add r12, 1
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.20: movd xmm0, r8d; add r9, 1; add r10, 1
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        movd xmm0, r8d
        add r9, 1
        add r10, 1
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 2.00: vmovq xmm0, r8; vmovq xmm1, r8
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        vmovq xmm0, r8
        vmovq xmm1, r8
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
        ret
