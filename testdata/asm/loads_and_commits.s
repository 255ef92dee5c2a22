# Zen 4 loops whose vector loads and store commits are both at their limit (lead, not
# modelled; scripts/README.md "Loop benchmark"). Each loop steps `rax` by a line or two and
# closes with `cmp rax, rdx; jne`. `suaca profile --processes 5` on Zen 4 (family 25
# model 17, 2026-11-26) measured the cycles per iteration noted before each region (every
# process within 0.02 of the median). suaca predicts 2.00, 2.00, 4.00, 2.00, 2.00 for the
# first five, where loads (two vector loads a cycle) and commits (one line a cycle) each
# need 2 or 4 cycles: they run at 9/8 of that (two zmm loads and a zmm store 2.31); with
# either side short of its limit (the next three) the model holds. Regions 8-13 (the same
# host and day, `--processes 3`): four ymm loads and two ymm stores to two lines 2.25, with
# two 8-byte integer stores 2.50, with one ymm store 2.09; the loads and stores at fixed
# addresses in a loop 2.25, four copies of them in one loop body 8.50 (not 9/8 of 8.00),
# and unrolled with no loop 2.00: the excess needs the loop (predicted 2.00, 8.00).
# On the Intel host (Redwood Cove, taken as MTL-P; `suaca profile --processes 3`,
# 2026-11-27, one run), regions 0-13 read 2.40, 2.00, 4.00, 1.24, 1.77, 1.88, 2.44, 0.88,
# 1.92, 2.11, 2.41, 2.00, 8.00, 2.00 against MTL-P's 1.31, 2.00, 4.00, 0.50, 2.00, 1.00,
# 1.50, 0.50, 2.00, 2.00, 1.34, 2.00, 8.00, 2.00: the loops stepping by two lines with all
# stores in one line (0, 5, 6, 10) run near two cycles an iteration where the model sees
# one line to commit and loads to spare (not modelled; the zmm regions have no MTL-P data).
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
# 2.25: four ymm loads and two ymm stores to two lines
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovups ymm1, ymmword ptr [rsi+rax]
        vmovups ymm2, ymmword ptr [rsi+rax+32]
        vmovups ymm3, ymmword ptr [rcx+rax]
        vmovups ymm4, ymmword ptr [rcx+rax+32]
        vmovups ymmword ptr [rdi+rax], ymm0
        vmovups ymmword ptr [rdi+rax+64], ymm0
        add rax, 128
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 2.50: the same with two 8-byte integer stores
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovups ymm1, ymmword ptr [rsi+rax]
        vmovups ymm2, ymmword ptr [rsi+rax+32]
        vmovups ymm3, ymmword ptr [rcx+rax]
        vmovups ymm4, ymmword ptr [rcx+rax+32]
        mov qword ptr [rdi+rax], r8
        mov qword ptr [rdi+rax+64], r9
        add rax, 128
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 2.09: the same with one ymm store
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovups ymm1, ymmword ptr [rsi+rax]
        vmovups ymm2, ymmword ptr [rsi+rax+32]
        vmovups ymm3, ymmword ptr [rcx+rax]
        vmovups ymm4, ymmword ptr [rcx+rax+32]
        vmovups ymmword ptr [rdi+rax], ymm0
        add rax, 128
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 2.25: loads and stores at fixed addresses, in a loop
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovups ymm1, ymmword ptr [r14+4096]
        vmovups ymm2, ymmword ptr [r14+4128]
        vmovups ymm3, ymmword ptr [r14+4160]
        vmovups ymm4, ymmword ptr [r14+4192]
        vmovups ymmword ptr [r14+4352], ymm0
        vmovups ymmword ptr [r14+4480], ymm0
        add rax, 1
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 8.50: four copies of them in one loop body (not 9.00)
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovups ymm1, ymmword ptr [r14+4096]
        vmovups ymm2, ymmword ptr [r14+4128]
        vmovups ymm3, ymmword ptr [r14+4160]
        vmovups ymm4, ymmword ptr [r14+4192]
        vmovups ymmword ptr [r14+4352], ymm0
        vmovups ymmword ptr [r14+4480], ymm0
        vmovups ymm1, ymmword ptr [r14+4096]
        vmovups ymm2, ymmword ptr [r14+4128]
        vmovups ymm3, ymmword ptr [r14+4160]
        vmovups ymm4, ymmword ptr [r14+4192]
        vmovups ymmword ptr [r14+4352], ymm0
        vmovups ymmword ptr [r14+4480], ymm0
        vmovups ymm1, ymmword ptr [r14+4096]
        vmovups ymm2, ymmword ptr [r14+4128]
        vmovups ymm3, ymmword ptr [r14+4160]
        vmovups ymm4, ymmword ptr [r14+4192]
        vmovups ymmword ptr [r14+4352], ymm0
        vmovups ymmword ptr [r14+4480], ymm0
        vmovups ymm1, ymmword ptr [r14+4096]
        vmovups ymm2, ymmword ptr [r14+4128]
        vmovups ymm3, ymmword ptr [r14+4160]
        vmovups ymm4, ymmword ptr [r14+4192]
        vmovups ymmword ptr [r14+4352], ymm0
        vmovups ymmword ptr [r14+4480], ymm0
        add rax, 1
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 2.00: the fixed loads and stores unrolled, no loop (no excess)
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        vmovups ymm1, ymmword ptr [r14+4096]
        vmovups ymm2, ymmword ptr [r14+4128]
        vmovups ymm3, ymmword ptr [r14+4160]
        vmovups ymm4, ymmword ptr [r14+4192]
        vmovups ymmword ptr [r14+4352], ymm0
        vmovups ymmword ptr [r14+4480], ymm0
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
        ret
