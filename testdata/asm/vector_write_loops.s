# 256-bit results in small loops on the Intel host (Redwood Cove, taken as MTL-P; a lead,
# not modelled: docs/model.md "256-bit results (Redwood Cove)"). `suaca profile --processes 3
# --arch MTL-P` on the Intel host (CPUID family 6 model 167 reported, 2026-11-28, two runs)
# measured the cycles per iteration noted before each loop. Four 256-bit results an
# iteration (two 32-byte loads and two ymm operations, or one and three) take 1.10-1.16
# cycles where MTL-P's two write ports allow 1.00, three take 1.02, and xmm ones 1.02: the
# fixture ymm_writes.s reaches four a cycle in long bodies, these loops do not. Unrolled
# twice and three times the loss per body shrinks (2.15, 3.12). With 4-cycle vmulps the
# loss grows (1.25), and gcc's stencil1d3_f64 (three loads, five FP operations, eight
# results) reads 2.23 with every access aligned and 2.86-3.03 as compiled, MTL-P 2.00.
        .intel_syntax noprefix
        .text
        .globl f
        .p2align 6
f:
# 1.10: two 32-byte loads, two ymm operations
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovdqu ymm1, ymmword ptr [rsi+rax]
        vmovdqu ymm2, ymmword ptr [rdx+rax]
        vpaddd ymm0, ymm1, ymm2
        vpaddd ymm5, ymm0, ymm6
        add rax, 32
        cmp rax, r8
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.02: two 32-byte loads, one ymm operation
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovdqu ymm1, ymmword ptr [rsi+rax]
        vmovdqu ymm2, ymmword ptr [rdx+rax]
        vpaddd ymm0, ymm1, ymm2
        nop
        add rax, 32
        cmp rax, r8
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.02: two 32-byte loads alone
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovdqu ymm1, ymmword ptr [rsi+rax]
        vmovdqu ymm2, ymmword ptr [rdx+rax]
        nop
        nop
        add rax, 32
        cmp rax, r8
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.16: one 32-byte load, three ymm operations
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovdqu ymm1, ymmword ptr [rsi+rax]
        vpaddd ymm0, ymm1, ymm2
        vpaddd ymm5, ymm0, ymm6
        vpaddd ymm4, ymm7, ymm6
        add rax, 32
        cmp rax, r8
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.01: the first loop with xmm
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovdqu xmm1, xmmword ptr [rsi+rax]
        vmovdqu xmm2, xmmword ptr [rdx+rax]
        vpaddd xmm0, xmm1, xmm2
        vpaddd xmm5, xmm0, xmm6
        add rax, 32
        cmp rax, r8
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.25: two 32-byte loads, two vmulps
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovdqu ymm1, ymmword ptr [rsi+rax]
        vmovdqu ymm2, ymmword ptr [rdx+rax]
        vmulps ymm0, ymm1, ymm2
        vmulps ymm5, ymm2, ymm6
        add rax, 32
        cmp rax, r8
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 2.15-2.16: the first loop's body twice (fixed addresses)
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovdqu ymm1, ymmword ptr [rsi+0]
        vmovdqu ymm2, ymmword ptr [rsi+32]
        vpaddd ymm0, ymm1, ymm2
        vpaddd ymm5, ymm0, ymm6
        vmovdqu ymm1, ymmword ptr [rsi+64]
        vmovdqu ymm2, ymmword ptr [rsi+96]
        vpaddd ymm0, ymm1, ymm2
        vpaddd ymm5, ymm0, ymm6
        add rax, 32
        cmp rax, r8
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 3.12: the first loop's body three times (fixed addresses)
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovdqu ymm1, ymmword ptr [rsi+0]
        vmovdqu ymm2, ymmword ptr [rsi+32]
        vpaddd ymm0, ymm1, ymm2
        vpaddd ymm5, ymm0, ymm6
        vmovdqu ymm1, ymmword ptr [rsi+64]
        vmovdqu ymm2, ymmword ptr [rsi+96]
        vpaddd ymm0, ymm1, ymm2
        vpaddd ymm5, ymm0, ymm6
        vmovdqu ymm1, ymmword ptr [rsi+128]
        vmovdqu ymm2, ymmword ptr [rsi+160]
        vpaddd ymm0, ymm1, ymm2
        vpaddd ymm5, ymm0, ymm6
        add rax, 32
        cmp rax, r8
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 2.86-3.03: gcc -O3 -march=x86-64-v3 stencil1d3_f64
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmulpd ymm2, ymm3, ymmword ptr [rcx+rax+8]
        vmulpd ymm0, ymm1, ymmword ptr [rcx+rax]
        vaddpd ymm0, ymm0, ymm2
        vmulpd ymm2, ymm1, ymmword ptr [rcx+rax+16]
        vaddpd ymm0, ymm0, ymm2
        vmovupd ymmword ptr [rdi+rax+8], ymm0
        add rax, 32
        cmp rax, r8
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 2.23: the same, every load and the store aligned
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmulpd ymm2, ymm3, ymmword ptr [rdx+rax]
        vmulpd ymm0, ymm1, ymmword ptr [rcx+rax]
        vaddpd ymm0, ymm0, ymm2
        vmulpd ymm2, ymm1, ymmword ptr [rsi+rax]
        vaddpd ymm0, ymm0, ymm2
        vmovupd ymmword ptr [rdi+rax], ymm0
        add rax, 32
        cmp rax, r8
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 2.24: the same with vpaddq for the FP operations, no store
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vpaddq ymm2, ymm3, ymmword ptr [rdx+rax]
        vpaddq ymm0, ymm1, ymmword ptr [rcx+rax]
        vpaddq ymm0, ymm0, ymm2
        vpaddq ymm2, ymm1, ymmword ptr [rsi+rax]
        vpaddq ymm0, ymm0, ymm2
        add rax, 32
        cmp rax, r8
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
