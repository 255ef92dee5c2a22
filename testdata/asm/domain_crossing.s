# Vector chains fed across the integer/floating-point domains on the Intel host (Redwood Cove,
# taken as MTL-P; modelled since session 29 by the vector bypass, docs/model.md "Vector
# bypass", which vector_bypass.s measures further: every loop here within 5%). `suaca profile
# --processes 3 --arch MTL-P` on the Intel host (CPUID family 6 model 167 reported,
# 2026-11-28, one run) measured the cycles per iteration noted before each loop; MTL-P
# predicts each chain's latency (1.00 a step, 2.00 for a vaddpd chain; 1.04-1.07 where ports
# share). An integer instruction on a loop-carried chain whose other input an FP compare or
# add wrote is slower than its latency: `vcmpltpd` then `vpsubq ymm2, ymm2, ymm1` 1.64 (gcc's
# count_less_f64, 1.64 in the MTL-P loop set), after `vaddpd` 2.10, two chained `vpsubq` of
# which one reads the compare 2.64; the same after `vpaddq` (integer), after `vandpd` (FP
# logic), with the crossing off the chain, or into an FP consumer (`vaddpd` chain after
# `vpaddq`) costs nothing extra. Two 1-cycle chains fed by a load read below their latency
# (0.87, 0.91; such loops run N = 128 iterations against 800 without memory).
# The last four loops (same command, 2026-11-28, session 27) make it a matter of ports more
# than of domains: a `mulpd` result costs the same (1.62), so does an FP `andpd` on the chain
# (1.63), and a chain operation that runs on p5 alone (`palignr`, `shufpd`) nothing (1.00).
# A guess that fitted then, disproved by vector_bypass.s: a write-back conflict on p0/p1
# between the chain's 1-cycle µop and a 4-cycle FP µop dispatched three cycles before it (a
# vmulpd the chain does not read costs nothing; one it reads two iterations later does).
        .intel_syntax noprefix
        .text
        .globl f
        .p2align 6
f:
# 1.00: vpsubq chain alone
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vpsubq ymm2, ymm2, ymm1
        add rax, 32
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.64: vcmpltpd -> vpsubq chain, no load
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vcmpltpd ymm1, ymm4, ymm3
        vpsubq ymm2, ymm2, ymm1
        add rax, 32
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.65: count_less body
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovupd ymm4, ymmword ptr [rax]
        vcmpltpd ymm1, ymm4, ymm3
        vpsubq ymm2, ymm2, ymm1
        add rax, 32
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.00: vpaddq -> vpsubq chain
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vpaddq ymm1, ymm4, ymm3
        vpsubq ymm2, ymm2, ymm1
        add rax, 32
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 0.87, 1.00: load -> pmaxsd chain
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        movdqu xmm2, xmmword ptr [rax]
        pmaxsd xmm0, xmm2
        add rax, 32
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 0.99: pmaxsd chain alone
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        pmaxsd xmm0, xmm2
        add rax, 32
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 0.91, 1.00: load -> vpsubq chain
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovdqu ymm1, ymmword ptr [rax]
        vpsubq ymm2, ymm2, ymm1
        add rax, 32
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.64: vcmpltpd(load) -> vpsubq
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vcmpltpd ymm1, ymm3, ymmword ptr [rax]
        vpsubq ymm2, ymm2, ymm1
        add rax, 32
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.65: vmovupd load, vcmp, vpand chain
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovupd ymm4, ymmword ptr [rax]
        vcmpltpd ymm1, ymm4, ymm3
        vpand ymm2, ymm2, ymm1
        add rax, 32
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.70: two chains
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovupd ymm4, ymmword ptr [rax]
        vcmpltpd ymm1, ymm4, ymm3
        vpsubq ymm2, ymm2, ymm1
        vpsubq ymm5, ymm5, ymm1
        add rax, 32
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.64: vcmpltpd -> vpaddq chain
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vcmpltpd ymm1, ymm4, ymm3
        vpaddq ymm2, ymm2, ymm1
        add rax, 32
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 2.10: vaddpd -> vpsubq chain
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vaddpd ymm1, ymm4, ymm3
        vpsubq ymm2, ymm2, ymm1
        add rax, 32
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 2.00: vpaddq -> vaddpd chain
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vpaddq ymm1, ymm4, ymm3
        vaddpd ymm2, ymm2, ymm1
        add rax, 32
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 2.00: vaddpd -> vaddpd chain
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vaddpd ymm1, ymm4, ymm3
        vaddpd ymm2, ymm2, ymm1
        add rax, 32
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 2.64: vcmpltpd -> vpsubq; vpsubq chain of two
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vcmpltpd ymm1, ymm4, ymm3
        vpsubq ymm2, ymm2, ymm1
        vpsubq ymm2, ymm2, ymm5
        add rax, 32
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.04: vcmpltpd -> vpsubq off chain -> vpaddq chain
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vcmpltpd ymm1, ymm4, ymm3
        vpsubq ymm6, ymm1, ymm5
        vpaddq ymm2, ymm2, ymm6
        add rax, 32
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.64: cmpltpd -> psubq chain (SSE)
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        movapd xmm1, xmm4
        cmpltpd xmm1, xmm3
        psubq xmm2, xmm1
        add rax, 32
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.00: vandpd -> vpsubq chain
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vandpd ymm1, ymm4, ymm3
        vpsubq ymm2, ymm2, ymm1
        add rax, 32
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.64: vcmpltpd -> vpsubq, xmm
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vcmpltpd xmm1, xmm4, xmm3
        vpsubq xmm2, xmm2, xmm1
        add rax, 32
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 2.00: vpcmpgtq -> vaddpd chain
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vpcmpgtq ymm1, ymm4, ymm3
        vaddpd ymm2, ymm2, ymm1
        add rax, 32
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.62: mulpd -> psubq chain
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        movupd xmm1, xmmword ptr [rax]
        add rax, 16
        mulpd xmm1, xmm3
        psubq xmm2, xmm1
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.63: cmpltpd -> andpd chain (FP logic on the chain)
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        movupd xmm1, xmmword ptr [rax]
        add rax, 16
        cmpltpd xmm1, xmm3
        andpd xmm2, xmm1
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 0.99: cmpltpd -> palignr chain (p5 only)
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        movupd xmm1, xmmword ptr [rax]
        add rax, 16
        cmpltpd xmm1, xmm3
        palignr xmm2, xmm1, 8
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.00: cmpltpd -> shufpd chain (p5 only)
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        movupd xmm1, xmmword ptr [rax]
        add rax, 16
        cmpltpd xmm1, xmm3
        shufpd xmm2, xmm1, 1
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
