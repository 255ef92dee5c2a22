# Slot fillers on the Intel host (Redwood Cove, taken as MTL-P): `suaca measure` counts an
# instruction's slots from how much filler it slows, so the filler must rename at the full
# width. `suaca profile --processes 3 --arch MTL-P` on the Intel host (CPUID family 6 model
# 167 reported, 2026-11-28) measured 90 zero idioms `xor r13d, r13d` at 16.9 cycles (5.3 a
# cycle, spread 1.9%) and 90 `nop` at 15.0 (six a cycle): the fillers on Intel are NOPs
# (docs/measurement.md, "Ports without port counters"); with zero idioms the slot counts of
# one-a-cycle instructions flipped between 1 and 2 from run to run.
        .intel_syntax noprefix
        .text
        .globl f
        .p2align 6
f:
# 90 zero idioms: 16.9
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .rept 90
        xor r13d, r13d
        .endr
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 90 NOPs: 15.0
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .rept 90
        nop
        .endr
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
