# VCVTUSI2SS slots and the legacy decoders (a lead, not modelled). Four independent
# `vcvtusi2ss xmmN, xmm15, eax` and k NOPs a copy; `suaca profile --processes 3 --arch MTL-P`
# on the Intel host (Redwood Cove, CPUID family 6 model 167 reported, 2026-11-28), cycles a
# copy, then MTL-P's prediction with our supplement's 4 slots (data/measured/MTL-P.xml.zst):
#   k = 0: 4.00 (4.00)   8: 4.67 (4.00)   12: 6.12 (4.67)   16: 6.00 (5.33)   20: 7.00 (6.00)
# Past the p5 bound the copies read slower than even 4 slots an instruction allow at 6 a
# cycle: a front-end limit, perhaps the legacy decoders (one complex decoder takes the
# instruction; this body of about 3,000 unrolled instructions may not stay in the µop
# cache), so a NOP filler (how `suaca measure` counts slots) may read too many slots for
# such forms. uops.info gives ICL, TGL and RKL 2 slots; with
# 2, gcc -O2 -march=native's u8_to_f32_norm loop (7 slots, 1.17 measured) is predicted
# exactly, with our 4 it is 1.66.
        .intel_syntax noprefix
        .text
        .globl f
f:
# 4 vcvtusi2ss + 0 nop
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        vcvtusi2ss xmm1, xmm15, eax
        vcvtusi2ss xmm2, xmm15, eax
        vcvtusi2ss xmm3, xmm15, eax
        vcvtusi2ss xmm4, xmm15, eax
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
# 4 vcvtusi2ss + 8 nop
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        vcvtusi2ss xmm1, xmm15, eax
        vcvtusi2ss xmm2, xmm15, eax
        vcvtusi2ss xmm3, xmm15, eax
        vcvtusi2ss xmm4, xmm15, eax
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
# 4 vcvtusi2ss + 12 nop
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        vcvtusi2ss xmm1, xmm15, eax
        vcvtusi2ss xmm2, xmm15, eax
        vcvtusi2ss xmm3, xmm15, eax
        vcvtusi2ss xmm4, xmm15, eax
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
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
# 4 vcvtusi2ss + 16 nop
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        vcvtusi2ss xmm1, xmm15, eax
        vcvtusi2ss xmm2, xmm15, eax
        vcvtusi2ss xmm3, xmm15, eax
        vcvtusi2ss xmm4, xmm15, eax
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
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
# 4 vcvtusi2ss + 20 nop
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        vcvtusi2ss xmm1, xmm15, eax
        vcvtusi2ss xmm2, xmm15, eax
        vcvtusi2ss xmm3, xmm15, eax
        vcvtusi2ss xmm4, xmm15, eax
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
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
