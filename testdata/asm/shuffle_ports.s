# In-lane shuffles on Zen 4 run on three FP pipes, FP1-FP3 (data/measured/ZEN4.xml.zst,
# `ports_refit="1*FP123"`; data/measured/README.md, "Additions"): unrolled blocks. `suaca
# profile` on Zen 4 (family 25 model 17, 2026-11-26) measured the cycles per copy noted after
# each block: four shuffles 1.33 (three a cycle); three shuffles and two FP adds (FP2/FP3)
# 1.67, five µops on three pipes; three shuffles and two FP multiplies (FP0/FP1) 1.25, five
# on four.
        .intel_syntax noprefix
        .text
# four vshufps: 1.33
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        vshufps xmm2, xmm10, xmm11, 0x88
        vshufps xmm3, xmm10, xmm11, 0x88
        vshufps xmm4, xmm10, xmm11, 0x88
        vshufps xmm5, xmm10, xmm11, 0x88
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
# three vshufps, two vaddps (FP23): 1.67
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        vshufps xmm2, xmm10, xmm11, 0x88
        vshufps xmm3, xmm10, xmm11, 0x88
        vshufps xmm4, xmm10, xmm11, 0x88
        vaddps xmm5, xmm10, xmm11
        vaddps xmm6, xmm10, xmm11
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
# three vshufps, two vmulps (FP01): 1.25
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        vshufps xmm2, xmm10, xmm11, 0x88
        vshufps xmm3, xmm10, xmm11, 0x88
        vshufps xmm4, xmm10, xmm11, 0x88
        vmulps xmm5, xmm10, xmm11
        vmulps xmm6, xmm10, xmm11
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
# three vpunpcklbw, two vaddps (FP23): 1.67
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        vpunpcklbw xmm2, xmm10, xmm11
        vpunpcklbw xmm3, xmm10, xmm11
        vpunpcklbw xmm4, xmm10, xmm11
        vaddps xmm5, xmm10, xmm11
        vaddps xmm6, xmm10, xmm11
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
# three vpunpcklbw, two vmulps (FP01): 1.25
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        vpunpcklbw xmm2, xmm10, xmm11
        vpunpcklbw xmm3, xmm10, xmm11
        vpunpcklbw xmm4, xmm10, xmm11
        vmulps xmm5, xmm10, xmm11
        vmulps xmm6, xmm10, xmm11
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
# three vpshufd, two vaddps (FP23): 1.67
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        vpshufd xmm2, xmm10, 0x1b
        vpshufd xmm3, xmm10, 0x1b
        vpshufd xmm4, xmm10, 0x1b
        vaddps xmm5, xmm10, xmm11
        vaddps xmm6, xmm10, xmm11
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
# three vpshufd, two vmulps (FP01): 1.25
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        vpshufd xmm2, xmm10, 0x1b
        vpshufd xmm3, xmm10, 0x1b
        vpshufd xmm4, xmm10, 0x1b
        vmulps xmm5, xmm10, xmm11
        vmulps xmm6, xmm10, xmm11
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
# three vunpcklpd, two vaddps (FP23): 1.67
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        vunpcklpd xmm2, xmm10, xmm11
        vunpcklpd xmm3, xmm10, xmm11
        vunpcklpd xmm4, xmm10, xmm11
        vaddps xmm5, xmm10, xmm11
        vaddps xmm6, xmm10, xmm11
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
# three vunpcklpd, two vmulps (FP01): 1.25
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        vunpcklpd xmm2, xmm10, xmm11
        vunpcklpd xmm3, xmm10, xmm11
        vunpcklpd xmm4, xmm10, xmm11
        vmulps xmm5, xmm10, xmm11
        vmulps xmm6, xmm10, xmm11
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
