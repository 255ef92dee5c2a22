# 32-byte loads beside 256-bit operations, on the Intel host (Redwood Cove, CPUID family 6
# model 167 reported, 2026-11-28, session 27): `suaca profile --processes 3 --arch MTL-P`,
# cycles an iteration, and MTL-P's prediction before the rule below (the `vector_write`
# ports; docs/model.md "256-bit results" has the new ones). The loads read 32*i
# bytes from rdi (two a line, no bank conflicts, the same lines every iteration); the
# vpaddd run in eight chains of at most three, so neither chains nor ports bind:
#   ymm: 12 loads, 0 vpaddd           4.00  4.00
#   ymm: 0 loads, 12 vpaddd           4.00  4.00
#   ymm: 12 loads, 6 vpaddd           4.75  4.00
#   ymm: 6 loads, 12 vpaddd           4.40  4.00
#   ymm: 12 loads, 12 vpaddd          5.83  4.17
#   ymm: 12 loads, 18 vpaddd          6.91  6.00
#   ymm: 18 loads, 12 vpaddd          7.71  6.00
#   ymm: 18 loads, 18 vpaddd     8.48-8.76  6.17
#   xmm: 12 loads, 12 vpaddd     4.41-4.42  4.17
#   xmm: 18 loads, 18 vpaddd          6.54  6.17
# Loads alone and operations alone reach three a cycle; together the ymm ones stop at
# about four results a cycle (3.8-4.3: loaded values and computed ones alike), the xmm
# ones do not. A limit of four 256-bit register writes a cycle fits the ymm rows within
# 8%: MTL-P models it with two write ports taking two writes a µop (a first trial with
# four ports, one write each, silently turned off the engine's port binding at issue,
# which packs a port into 4 bits: at most 14 ports). clang's unrolled AVX2 loops of the
# MTL-P loop set (add_i32, sum_i32, abs_diff_sum, select_f64) were 10-18% under-predicted,
# as these rows were.
        .intel_syntax noprefix
        .text
        .globl f
        .p2align 6
f:
# ymm: 12 loads, 0 vpaddd
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovdqu ymm8, ymmword ptr [rdi+0]
        vmovdqu ymm9, ymmword ptr [rdi+32]
        vmovdqu ymm10, ymmword ptr [rdi+64]
        vmovdqu ymm11, ymmword ptr [rdi+96]
        vmovdqu ymm12, ymmword ptr [rdi+128]
        vmovdqu ymm13, ymmword ptr [rdi+160]
        vmovdqu ymm14, ymmword ptr [rdi+192]
        vmovdqu ymm15, ymmword ptr [rdi+224]
        vmovdqu ymm8, ymmword ptr [rdi+256]
        vmovdqu ymm9, ymmword ptr [rdi+288]
        vmovdqu ymm10, ymmword ptr [rdi+320]
        vmovdqu ymm11, ymmword ptr [rdi+352]
        add rax, -4
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# ymm: 0 loads, 12 vpaddd
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vpaddd ymm0, ymm0, ymm15
        vpaddd ymm1, ymm1, ymm15
        vpaddd ymm2, ymm2, ymm15
        vpaddd ymm3, ymm3, ymm15
        vpaddd ymm4, ymm4, ymm15
        vpaddd ymm5, ymm5, ymm15
        vpaddd ymm6, ymm6, ymm15
        vpaddd ymm7, ymm7, ymm15
        vpaddd ymm0, ymm0, ymm15
        vpaddd ymm1, ymm1, ymm15
        vpaddd ymm2, ymm2, ymm15
        vpaddd ymm3, ymm3, ymm15
        add rax, -4
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# ymm: 12 loads, 6 vpaddd
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovdqu ymm8, ymmword ptr [rdi+0]
        vmovdqu ymm9, ymmword ptr [rdi+32]
        vpaddd ymm0, ymm0, ymm15
        vmovdqu ymm10, ymmword ptr [rdi+64]
        vmovdqu ymm11, ymmword ptr [rdi+96]
        vpaddd ymm1, ymm1, ymm15
        vmovdqu ymm12, ymmword ptr [rdi+128]
        vmovdqu ymm13, ymmword ptr [rdi+160]
        vpaddd ymm2, ymm2, ymm15
        vmovdqu ymm14, ymmword ptr [rdi+192]
        vmovdqu ymm15, ymmword ptr [rdi+224]
        vpaddd ymm3, ymm3, ymm15
        vmovdqu ymm8, ymmword ptr [rdi+256]
        vmovdqu ymm9, ymmword ptr [rdi+288]
        vpaddd ymm4, ymm4, ymm15
        vmovdqu ymm10, ymmword ptr [rdi+320]
        vmovdqu ymm11, ymmword ptr [rdi+352]
        vpaddd ymm5, ymm5, ymm15
        add rax, -4
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# ymm: 6 loads, 12 vpaddd
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vpaddd ymm0, ymm0, ymm15
        vmovdqu ymm8, ymmword ptr [rdi+0]
        vpaddd ymm1, ymm1, ymm15
        vpaddd ymm2, ymm2, ymm15
        vmovdqu ymm9, ymmword ptr [rdi+32]
        vpaddd ymm3, ymm3, ymm15
        vpaddd ymm4, ymm4, ymm15
        vmovdqu ymm10, ymmword ptr [rdi+64]
        vpaddd ymm5, ymm5, ymm15
        vpaddd ymm6, ymm6, ymm15
        vmovdqu ymm11, ymmword ptr [rdi+96]
        vpaddd ymm7, ymm7, ymm15
        vpaddd ymm0, ymm0, ymm15
        vmovdqu ymm12, ymmword ptr [rdi+128]
        vpaddd ymm1, ymm1, ymm15
        vpaddd ymm2, ymm2, ymm15
        vmovdqu ymm13, ymmword ptr [rdi+160]
        vpaddd ymm3, ymm3, ymm15
        add rax, -4
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# ymm: 12 loads, 12 vpaddd
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovdqu ymm8, ymmword ptr [rdi+0]
        vpaddd ymm0, ymm0, ymm15
        vmovdqu ymm9, ymmword ptr [rdi+32]
        vpaddd ymm1, ymm1, ymm15
        vmovdqu ymm10, ymmword ptr [rdi+64]
        vpaddd ymm2, ymm2, ymm15
        vmovdqu ymm11, ymmword ptr [rdi+96]
        vpaddd ymm3, ymm3, ymm15
        vmovdqu ymm12, ymmword ptr [rdi+128]
        vpaddd ymm4, ymm4, ymm15
        vmovdqu ymm13, ymmword ptr [rdi+160]
        vpaddd ymm5, ymm5, ymm15
        vmovdqu ymm14, ymmword ptr [rdi+192]
        vpaddd ymm6, ymm6, ymm15
        vmovdqu ymm15, ymmword ptr [rdi+224]
        vpaddd ymm7, ymm7, ymm15
        vmovdqu ymm8, ymmword ptr [rdi+256]
        vpaddd ymm0, ymm0, ymm15
        vmovdqu ymm9, ymmword ptr [rdi+288]
        vpaddd ymm1, ymm1, ymm15
        vmovdqu ymm10, ymmword ptr [rdi+320]
        vpaddd ymm2, ymm2, ymm15
        vmovdqu ymm11, ymmword ptr [rdi+352]
        vpaddd ymm3, ymm3, ymm15
        add rax, -4
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# ymm: 12 loads, 18 vpaddd
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vpaddd ymm0, ymm0, ymm15
        vmovdqu ymm8, ymmword ptr [rdi+0]
        vpaddd ymm1, ymm1, ymm15
        vmovdqu ymm9, ymmword ptr [rdi+32]
        vpaddd ymm2, ymm2, ymm15
        vpaddd ymm3, ymm3, ymm15
        vmovdqu ymm10, ymmword ptr [rdi+64]
        vpaddd ymm4, ymm4, ymm15
        vmovdqu ymm11, ymmword ptr [rdi+96]
        vpaddd ymm5, ymm5, ymm15
        vpaddd ymm6, ymm6, ymm15
        vmovdqu ymm12, ymmword ptr [rdi+128]
        vpaddd ymm7, ymm7, ymm15
        vmovdqu ymm13, ymmword ptr [rdi+160]
        vpaddd ymm0, ymm0, ymm15
        vpaddd ymm1, ymm1, ymm15
        vmovdqu ymm14, ymmword ptr [rdi+192]
        vpaddd ymm2, ymm2, ymm15
        vmovdqu ymm15, ymmword ptr [rdi+224]
        vpaddd ymm3, ymm3, ymm15
        vpaddd ymm4, ymm4, ymm15
        vmovdqu ymm8, ymmword ptr [rdi+256]
        vpaddd ymm5, ymm5, ymm15
        vmovdqu ymm9, ymmword ptr [rdi+288]
        vpaddd ymm6, ymm6, ymm15
        vpaddd ymm7, ymm7, ymm15
        vmovdqu ymm10, ymmword ptr [rdi+320]
        vpaddd ymm0, ymm0, ymm15
        vmovdqu ymm11, ymmword ptr [rdi+352]
        vpaddd ymm1, ymm1, ymm15
        add rax, -4
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# ymm: 18 loads, 12 vpaddd
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovdqu ymm8, ymmword ptr [rdi+0]
        vmovdqu ymm9, ymmword ptr [rdi+32]
        vpaddd ymm0, ymm0, ymm15
        vmovdqu ymm10, ymmword ptr [rdi+64]
        vpaddd ymm1, ymm1, ymm15
        vmovdqu ymm11, ymmword ptr [rdi+96]
        vmovdqu ymm12, ymmword ptr [rdi+128]
        vpaddd ymm2, ymm2, ymm15
        vmovdqu ymm13, ymmword ptr [rdi+160]
        vpaddd ymm3, ymm3, ymm15
        vmovdqu ymm14, ymmword ptr [rdi+192]
        vmovdqu ymm15, ymmword ptr [rdi+224]
        vpaddd ymm4, ymm4, ymm15
        vmovdqu ymm8, ymmword ptr [rdi+256]
        vpaddd ymm5, ymm5, ymm15
        vmovdqu ymm9, ymmword ptr [rdi+288]
        vmovdqu ymm10, ymmword ptr [rdi+320]
        vpaddd ymm6, ymm6, ymm15
        vmovdqu ymm11, ymmword ptr [rdi+352]
        vpaddd ymm7, ymm7, ymm15
        vmovdqu ymm12, ymmword ptr [rdi+384]
        vmovdqu ymm13, ymmword ptr [rdi+416]
        vpaddd ymm0, ymm0, ymm15
        vmovdqu ymm14, ymmword ptr [rdi+448]
        vpaddd ymm1, ymm1, ymm15
        vmovdqu ymm15, ymmword ptr [rdi+480]
        vmovdqu ymm8, ymmword ptr [rdi+512]
        vpaddd ymm2, ymm2, ymm15
        vmovdqu ymm9, ymmword ptr [rdi+544]
        vpaddd ymm3, ymm3, ymm15
        add rax, -4
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# ymm: 18 loads, 18 vpaddd
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovdqu ymm8, ymmword ptr [rdi+0]
        vpaddd ymm0, ymm0, ymm15
        vmovdqu ymm9, ymmword ptr [rdi+32]
        vpaddd ymm1, ymm1, ymm15
        vmovdqu ymm10, ymmword ptr [rdi+64]
        vpaddd ymm2, ymm2, ymm15
        vmovdqu ymm11, ymmword ptr [rdi+96]
        vpaddd ymm3, ymm3, ymm15
        vmovdqu ymm12, ymmword ptr [rdi+128]
        vpaddd ymm4, ymm4, ymm15
        vmovdqu ymm13, ymmword ptr [rdi+160]
        vpaddd ymm5, ymm5, ymm15
        vmovdqu ymm14, ymmword ptr [rdi+192]
        vpaddd ymm6, ymm6, ymm15
        vmovdqu ymm15, ymmword ptr [rdi+224]
        vpaddd ymm7, ymm7, ymm15
        vmovdqu ymm8, ymmword ptr [rdi+256]
        vpaddd ymm0, ymm0, ymm15
        vmovdqu ymm9, ymmword ptr [rdi+288]
        vpaddd ymm1, ymm1, ymm15
        vmovdqu ymm10, ymmword ptr [rdi+320]
        vpaddd ymm2, ymm2, ymm15
        vmovdqu ymm11, ymmword ptr [rdi+352]
        vpaddd ymm3, ymm3, ymm15
        vmovdqu ymm12, ymmword ptr [rdi+384]
        vpaddd ymm4, ymm4, ymm15
        vmovdqu ymm13, ymmword ptr [rdi+416]
        vpaddd ymm5, ymm5, ymm15
        vmovdqu ymm14, ymmword ptr [rdi+448]
        vpaddd ymm6, ymm6, ymm15
        vmovdqu ymm15, ymmword ptr [rdi+480]
        vpaddd ymm7, ymm7, ymm15
        vmovdqu ymm8, ymmword ptr [rdi+512]
        vpaddd ymm0, ymm0, ymm15
        vmovdqu ymm9, ymmword ptr [rdi+544]
        vpaddd ymm1, ymm1, ymm15
        add rax, -4
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# xmm: 12 loads, 12 vpaddd
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovdqu xmm8, xmmword ptr [rdi+0]
        vpaddd xmm0, xmm0, xmm15
        vmovdqu xmm9, xmmword ptr [rdi+32]
        vpaddd xmm1, xmm1, xmm15
        vmovdqu xmm10, xmmword ptr [rdi+64]
        vpaddd xmm2, xmm2, xmm15
        vmovdqu xmm11, xmmword ptr [rdi+96]
        vpaddd xmm3, xmm3, xmm15
        vmovdqu xmm12, xmmword ptr [rdi+128]
        vpaddd xmm4, xmm4, xmm15
        vmovdqu xmm13, xmmword ptr [rdi+160]
        vpaddd xmm5, xmm5, xmm15
        vmovdqu xmm14, xmmword ptr [rdi+192]
        vpaddd xmm6, xmm6, xmm15
        vmovdqu xmm15, xmmword ptr [rdi+224]
        vpaddd xmm7, xmm7, xmm15
        vmovdqu xmm8, xmmword ptr [rdi+256]
        vpaddd xmm0, xmm0, xmm15
        vmovdqu xmm9, xmmword ptr [rdi+288]
        vpaddd xmm1, xmm1, xmm15
        vmovdqu xmm10, xmmword ptr [rdi+320]
        vpaddd xmm2, xmm2, xmm15
        vmovdqu xmm11, xmmword ptr [rdi+352]
        vpaddd xmm3, xmm3, xmm15
        add rax, -4
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# xmm: 18 loads, 18 vpaddd
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovdqu xmm8, xmmword ptr [rdi+0]
        vpaddd xmm0, xmm0, xmm15
        vmovdqu xmm9, xmmword ptr [rdi+32]
        vpaddd xmm1, xmm1, xmm15
        vmovdqu xmm10, xmmword ptr [rdi+64]
        vpaddd xmm2, xmm2, xmm15
        vmovdqu xmm11, xmmword ptr [rdi+96]
        vpaddd xmm3, xmm3, xmm15
        vmovdqu xmm12, xmmword ptr [rdi+128]
        vpaddd xmm4, xmm4, xmm15
        vmovdqu xmm13, xmmword ptr [rdi+160]
        vpaddd xmm5, xmm5, xmm15
        vmovdqu xmm14, xmmword ptr [rdi+192]
        vpaddd xmm6, xmm6, xmm15
        vmovdqu xmm15, xmmword ptr [rdi+224]
        vpaddd xmm7, xmm7, xmm15
        vmovdqu xmm8, xmmword ptr [rdi+256]
        vpaddd xmm0, xmm0, xmm15
        vmovdqu xmm9, xmmword ptr [rdi+288]
        vpaddd xmm1, xmm1, xmm15
        vmovdqu xmm10, xmmword ptr [rdi+320]
        vpaddd xmm2, xmm2, xmm15
        vmovdqu xmm11, xmmword ptr [rdi+352]
        vpaddd xmm3, xmm3, xmm15
        vmovdqu xmm12, xmmword ptr [rdi+384]
        vpaddd xmm4, xmm4, xmm15
        vmovdqu xmm13, xmmword ptr [rdi+416]
        vpaddd xmm5, xmm5, xmm15
        vmovdqu xmm14, xmmword ptr [rdi+448]
        vpaddd xmm6, xmm6, xmm15
        vmovdqu xmm15, xmmword ptr [rdi+480]
        vpaddd xmm7, xmm7, xmm15
        vmovdqu xmm8, xmmword ptr [rdi+512]
        vpaddd xmm0, xmm0, xmm15
        vmovdqu xmm9, xmmword ptr [rdi+544]
        vpaddd xmm1, xmm1, xmm15
        add rax, -4
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
