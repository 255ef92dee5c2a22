# Zen 4 loops whose vector loads and store commits are both at their limit (lead, not
# modelled; scripts/README.md "Loop benchmark"). Each loop steps `rax` by a line or two and
# closes with `cmp rax, rdx; jne`. `suaca profile --processes 5` on Zen 4 (family 25
# model 17, 2026-11-26) measured the cycles per iteration noted before each region (every
# process within 0.02 of the median). suaca predicts 2.00, 2.00, 4.00, 2.00, 2.00 for the
# first five, where loads (two vector loads a cycle) and commits (one line a cycle) each
# need 2 or 4 cycles: they run at 9/8 of that (two zmm loads and a zmm store 2.31); with
# either side short of its limit (the last three) the model holds.
        .intel_syntax noprefix
        .text
        .globl f
        .p2align 6
f:
# 2.25: loads and store commits both at their limit: four xmm loads, two stores to one line
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovups xmm1, xmmword ptr [rsi+rax]
        vmovups xmm2, xmmword ptr [rcx+rax]
        vmovups xmm3, xmmword ptr [rsi+rax+16]
        vmovups xmm4, xmmword ptr [rcx+rax+16]
        vmovups xmmword ptr [rdi+rax], xmm0
        vmovups xmmword ptr [rdi+rax+16], xmm0
        add rax, 128
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 2.25: the same, stores to two arrays
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovups xmm1, xmmword ptr [rsi+rax]
        vmovups xmm2, xmmword ptr [rcx+rax]
        vmovups xmm3, xmmword ptr [rsi+rax+16]
        vmovups xmm4, xmmword ptr [rcx+rax+16]
        vmovups xmmword ptr [rdi+rax], xmm0
        vmovups xmmword ptr [r8+rax], xmm0
        add rax, 64
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 4.50: eight xmm loads, four stores to two arrays
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovups xmm1, [rsi+rax]
        vmovups xmm2, [rcx+rax]
        vmovups xmm3, [rsi+rax+16]
        vmovups xmm4, [rcx+rax+16]
        vmovups xmm5, [rsi+rax+32]
        vmovups xmm6, [rcx+rax+32]
        vmovups xmm7, [rsi+rax+48]
        vmovups xmm8, [rcx+rax+48]
        vmovups [rdi+rax], xmm0
        vmovups [r8+rax], xmm0
        vmovups [rdi+rax+16], xmm0
        vmovups [r8+rax+16], xmm0
        add rax, 64
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 2.31: two zmm loads and a zmm store
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovups zmm1, zmmword ptr [rsi+rax]
        vmovups zmm2, zmmword ptr [rcx+rax]
        vmovups zmmword ptr [rdi+rax], zmm0
        add rax, 64
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 2.25: four ymm loads and two ymm stores to one line
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovups ymm1, ymmword ptr [rsi+rax]
        vmovups ymm2, ymmword ptr [rcx+rax]
        vmovups ymm3, ymmword ptr [rsi+rax+32]
        vmovups ymm4, ymmword ptr [rcx+rax+32]
        vmovups ymmword ptr [rdi+rax], ymm0
        vmovups ymmword ptr [rdi+rax+32], ymm0
        add rax, 64
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 2.00: loads with slack: two xmm loads, two stores to one line
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovups xmm1, xmmword ptr [rsi+rax]
        vmovups xmm2, xmmword ptr [rcx+rax]
        vmovups xmmword ptr [rdi+rax], xmm0
        vmovups xmmword ptr [rdi+rax+16], xmm0
        add rax, 128
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 3.00: three xmm loads, three stores to one line
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovups xmm1, xmmword ptr [rsi+rax]
        vmovups xmm2, xmmword ptr [rcx+rax]
        vmovups xmm3, xmmword ptr [rsi+rax+16]
        vmovups xmmword ptr [rdi+rax], xmm0
        vmovups xmmword ptr [rdi+rax+16], xmm0
        vmovups xmmword ptr [rdi+rax+32], xmm0
        add rax, 128
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 2.00: a zmm load and a zmm store
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovups zmm1, zmmword ptr [rsi+rax]
        vmovups zmmword ptr [rdi+rax], zmm0
        add rax, 64
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
        ret
