# Vector results crossing between the FP units and the vector ALUs on the Intel host
# (Redwood Cove, taken as MTL-P): docs/model.md "Vector bypass", `scheduler.vector_bypass`.
# `suaca profile --processes 3 --arch MTL-P` on the Intel host (CPUID family 6 model 167
# reported, 2026-11-28, two runs alike) measured the cycles per iteration noted before each
# loop. A one-cycle chain step that reads a result of an FMA unit (vmulpd, vcvtps2dq,
# vcmpltpd) or an FP adder (vaddpd) takes two cycles on port 0 or 1 (vpminsd: 2.00;
# vpsubq, which may also take port 5: 1.64) and one on port 5 (vpalignr: 1.00) unless an
# adder made the value (2.00); results of port 5 (vpcmpgtq), of one-cycle p0/p1 operations
# (vpsllq) and loads cost nothing, and so does a shuffle (vpshufb, p1/p5) after an FMA unit
# (1.00; after an adder 2.37). The other way, vmulpd reading a vector ALU's result takes a
# cycle more (4.00 for its 3; after vpshufb 3.00), an adder does not (vaddpd: 2.00). The
# cost does not need a fresh value: a product read two iterations later through eliminated
# moves still costs it (1.61), and a vmulpd the chain does not read costs nothing (1.00).
        .intel_syntax noprefix
        .text
        .globl f
        .p2align 6
f:
# 1.00: vpminsd chain alone
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vpminsd ymm2, ymm2, ymm4
        add rax, 32
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 2.00: vmulpd into a vpminsd chain (p0/p1 only)
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmulpd ymm1, ymm4, ymm3
        vpminsd ymm2, ymm2, ymm1
        add rax, 32
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 2.00: vcvtps2dq into a vpminsd chain
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vcvtps2dq ymm1, ymm4
        vpminsd ymm2, ymm2, ymm1
        add rax, 32
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 2.00: vaddpd into a vpminsd chain
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vaddpd ymm1, ymm4, ymm3
        vpminsd ymm2, ymm2, ymm1
        add rax, 32
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.00: vpcmpgtq (port 5, latency 3) into a vpminsd chain
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vpcmpgtq ymm1, ymm4, ymm3
        vpminsd ymm2, ymm2, ymm1
        add rax, 32
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.00: vpsllq (p0/p1, latency 1) into a vpminsd chain
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vpsllq ymm1, ymm4, 3
        vpminsd ymm2, ymm2, ymm1
        add rax, 32
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.00: a 32-byte load into a vpminsd chain
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovdqu ymm1, ymmword ptr [rax]
        vpminsd ymm2, ymm2, ymm1
        add rax, 32
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.64: vmulpd into a vpsubq chain (p0/p1/p5)
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmulpd ymm1, ymm4, ymm3
        vpsubq ymm2, ymm2, ymm1
        add rax, 32
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.00: vmulpd into a vpalignr chain (port 5)
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmulpd ymm1, ymm4, ymm3
        vpalignr ymm2, ymm2, ymm1, 8
        add rax, 32
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 2.00: vaddpd into a vpalignr chain
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vaddpd ymm1, ymm4, ymm3
        vpalignr ymm2, ymm2, ymm1, 8
        add rax, 32
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.00: vmulpd beside a vpsubq chain it does not feed
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmulpd ymm5, ymm4, ymm3
        vpsubq ymm2, ymm2, ymm6
        add rax, 32
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.61: vmulpd into a vpsubq chain two iterations later, through eliminated moves
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmulpd ymm1, ymm4, ymm3
        vpsubq ymm2, ymm2, ymm9
        vmovdqa ymm9, ymm10
        vmovdqa ymm10, ymm1
        add rax, 32
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 4.00: vpminsd into a vmulpd chain
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vpminsd ymm1, ymm4, ymm3
        vmulpd ymm2, ymm2, ymm1
        add rax, 32
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 4.00: vpaddq (p0/p1/p5) into a vmulpd chain
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vpaddq ymm1, ymm4, ymm3
        vmulpd ymm2, ymm2, ymm1
        add rax, 32
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 3.00: vpalignr (port 5) into a vmulpd chain
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vpalignr ymm1, ymm4, ymm3, 8
        vmulpd ymm2, ymm2, ymm1
        add rax, 32
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 2.00: vpminsd into a vaddpd chain
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vpminsd ymm1, ymm4, ymm3
        vaddpd ymm2, ymm2, ymm1
        add rax, 32
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 6.00: one chain through vmulpd and vpminsd
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmulpd ymm2, ymm2, ymm3
        vpminsd ymm2, ymm2, ymm4
        add rax, 32
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 4.00: one chain through vmulpd and vpalignr
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmulpd ymm2, ymm2, ymm3
        vpalignr ymm2, ymm2, ymm4, 8
        add rax, 32
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.64: gcc's count_less_f64 (-O3 -march=x86-64-v3): vcmpltpd into a vpsubq chain
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
# 2.00: SSE: mulpd into a pminsd chain
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        movaps xmm1, xmm4
        mulpd xmm1, xmm3
        pminsd xmm2, xmm1
        add rax, 32
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.00: vmulpd into a vpshufb chain (a shuffle, p1/p5)
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmulpd ymm1, ymm4, ymm3
        vpshufb ymm2, ymm2, ymm1
        add rax, 32
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 2.37/2.36: vaddpd into a vpshufb chain
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vaddpd ymm1, ymm4, ymm3
        vpshufb ymm2, ymm2, ymm1
        add rax, 32
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 3.00: vpshufb into a vmulpd chain
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vpshufb ymm1, ymm4, ymm3
        vmulpd ymm2, ymm2, ymm1
        add rax, 32
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
