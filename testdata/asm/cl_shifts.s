# Shifts and rotates by CL on Zen 4 (data/arch/ZEN4.toml `scheduler.cl_shifts_read_flags`):
# unrolled blocks. A shift by CL leaves the flags alone when the count is 0; Intel merges the
# old flags (a dependency), Zen 4 does not: `suaca profile` on Zen 4 (family 25 model 17,
# 2026-11-26) measured the cycles per copy noted after each block, the shift ALUs' rate
# (two a cycle), where a chain through the flags would give 2.00 and 3.00.
        .intel_syntax noprefix
        .text
# shl r9, cl; shl r10, cl: 1.00
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        shl r9, cl
        shl r10, cl
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
# three shl by cl: 1.50
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        shl r9, cl
        shl r10, cl
        shl r11, cl
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
# sar, rol, shr by cl: 1.50
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        sar r9, cl
        rol r10, cl
        shr r11, cl
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
# shl r9, cl; add r10, 1: 1.00
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        shl r9, cl
        add r10, 1
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
