# Floating-point compares into the flags on Zen 4 (data/arch/ZEN4.toml
# `scheduler.vector_to_gpr_holds_alus`): unrolled blocks. `suaca profile --processes 3` on
# Zen 4 (family 25 model 17, 2026-11-26) measured the cycles per copy noted after each
# description; the data's port fit (`1*FP0123+1*FP23`, no ALU) gives 0.50 for a compare
# alone, and the compare does not show in the integer adds beside it.
        .intel_syntax noprefix
        .text
        .globl f
        .p2align 6
f:
# vucomiss alone: 1.00
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        vucomiss xmm8, xmm9
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# vucomiss and two independent adds: 1.50
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        vucomiss xmm8, xmm9
        add r8, 1
        add r9, 1
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# vucomiss and four independent adds: 2.00 (the adds alone: 1.00)
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        vucomiss xmm8, xmm9
        add r8, 1
        add r9, 1
        add r10, 1
        add r11, 1
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# vucomiss and two vaddps: 1.50 (the FP pipes bind)
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        vucomiss xmm8, xmm9
        vaddps xmm0, xmm1, xmm2
        vaddps xmm3, xmm1, xmm2
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# ucomisd alone: 1.00
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        ucomisd xmm8, xmm9
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# vucomiss and seven independent adds: 2.75
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        vucomiss xmm8, xmm9
        add r8, 1
        add r9, 1
        add r10, 1
        add r11, 1
        add r12, 1
        add r13, 1
        add r14, 1
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        ret
