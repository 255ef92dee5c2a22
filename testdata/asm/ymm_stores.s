# 32-byte loads and stores stepping 256 bytes an iteration, on the Intel host (Redwood Cove,
# CPUID family 6 model 167 reported, 2026-11-28): `suaca profile --processes 3 --arch MTL-P
# [--iterations N]`, cycles an iteration at the profiler's choice (N = 64, in physical
# windows), at N = 128 and at N = 800 (windows too: more pages, a TLB miss on each fresh
# one), and MTL-P's prediction with `memory.store_slot_bytes = 32`:
#   2 stores                             1.20  1.25  1.34   1.00
#   8 stores                             3.96  4.39  4.37   4.00 (8.00 with a cycle a store)
#   8 loads                              2.93  2.97  3.15   2.67
#   8 loads, 4 stores (another array)    3.20  3.43  3.81   2.67
#   8 loads, 8 stores (another array)    4.05  3.91  4.88   4.00
#   8 loads, 8 stores (the same array)   4.04  4.31  5.18   4.00
#   16 loads, 8 stores (a third array)   6.52  6.69  7.02   5.34
# Two 32-byte stores into one line commit in a cycle (one slot each); loads run at about
# 2.7 a cycle, not 3, and loads beside stores slower still (not modelled).
        .intel_syntax noprefix
        .text
        .globl f
        .p2align 6
f:
# 2 stores
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovups ymmword ptr [rcx+rax+0], ymm1
        vmovups ymmword ptr [rcx+rax+32], ymm1
        add rax, 256
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 8 stores
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovups ymmword ptr [rcx+rax+0], ymm1
        vmovups ymmword ptr [rcx+rax+32], ymm1
        vmovups ymmword ptr [rcx+rax+64], ymm1
        vmovups ymmword ptr [rcx+rax+96], ymm1
        vmovups ymmword ptr [rcx+rax+128], ymm1
        vmovups ymmword ptr [rcx+rax+160], ymm1
        vmovups ymmword ptr [rcx+rax+192], ymm1
        vmovups ymmword ptr [rcx+rax+224], ymm1
        add rax, 256
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 8 loads
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovups ymm3, ymmword ptr [rsi+rax+0]
        vmovups ymm4, ymmword ptr [rsi+rax+32]
        vmovups ymm5, ymmword ptr [rsi+rax+64]
        vmovups ymm6, ymmword ptr [rsi+rax+96]
        vmovups ymm7, ymmword ptr [rsi+rax+128]
        vmovups ymm8, ymmword ptr [rsi+rax+160]
        vmovups ymm9, ymmword ptr [rsi+rax+192]
        vmovups ymm10, ymmword ptr [rsi+rax+224]
        add rax, 256
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 8 loads, 4 stores (another array)
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovups ymm3, ymmword ptr [rsi+rax+0]
        vmovups ymm4, ymmword ptr [rsi+rax+32]
        vmovups ymm5, ymmword ptr [rsi+rax+64]
        vmovups ymm6, ymmword ptr [rsi+rax+96]
        vmovups ymm7, ymmword ptr [rsi+rax+128]
        vmovups ymm8, ymmword ptr [rsi+rax+160]
        vmovups ymm9, ymmword ptr [rsi+rax+192]
        vmovups ymm10, ymmword ptr [rsi+rax+224]
        vmovups ymmword ptr [rcx+rax+0], ymm1
        vmovups ymmword ptr [rcx+rax+32], ymm1
        vmovups ymmword ptr [rcx+rax+64], ymm1
        vmovups ymmword ptr [rcx+rax+96], ymm1
        add rax, 256
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 8 loads, 8 stores (another array)
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovups ymm3, ymmword ptr [rsi+rax+0]
        vmovups ymm4, ymmword ptr [rsi+rax+32]
        vmovups ymm5, ymmword ptr [rsi+rax+64]
        vmovups ymm6, ymmword ptr [rsi+rax+96]
        vmovups ymm7, ymmword ptr [rsi+rax+128]
        vmovups ymm8, ymmword ptr [rsi+rax+160]
        vmovups ymm9, ymmword ptr [rsi+rax+192]
        vmovups ymm10, ymmword ptr [rsi+rax+224]
        vmovups ymmword ptr [rcx+rax+0], ymm1
        vmovups ymmword ptr [rcx+rax+32], ymm1
        vmovups ymmword ptr [rcx+rax+64], ymm1
        vmovups ymmword ptr [rcx+rax+96], ymm1
        vmovups ymmword ptr [rcx+rax+128], ymm1
        vmovups ymmword ptr [rcx+rax+160], ymm1
        vmovups ymmword ptr [rcx+rax+192], ymm1
        vmovups ymmword ptr [rcx+rax+224], ymm1
        add rax, 256
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 8 loads, 8 stores (the same array)
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovups ymm3, ymmword ptr [rcx+rax+0]
        vmovups ymm4, ymmword ptr [rcx+rax+32]
        vmovups ymm5, ymmword ptr [rcx+rax+64]
        vmovups ymm6, ymmword ptr [rcx+rax+96]
        vmovups ymm7, ymmword ptr [rcx+rax+128]
        vmovups ymm8, ymmword ptr [rcx+rax+160]
        vmovups ymm9, ymmword ptr [rcx+rax+192]
        vmovups ymm10, ymmword ptr [rcx+rax+224]
        vmovups ymmword ptr [rcx+rax+0], ymm1
        vmovups ymmword ptr [rcx+rax+32], ymm1
        vmovups ymmword ptr [rcx+rax+64], ymm1
        vmovups ymmword ptr [rcx+rax+96], ymm1
        vmovups ymmword ptr [rcx+rax+128], ymm1
        vmovups ymmword ptr [rcx+rax+160], ymm1
        vmovups ymmword ptr [rcx+rax+192], ymm1
        vmovups ymmword ptr [rcx+rax+224], ymm1
        add rax, 256
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 16 loads (two arrays), 8 stores (a third)
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovups ymm3, ymmword ptr [rsi+rax+0]
        vmovups ymm4, ymmword ptr [rsi+rax+32]
        vmovups ymm5, ymmword ptr [rsi+rax+64]
        vmovups ymm6, ymmword ptr [rsi+rax+96]
        vmovups ymm7, ymmword ptr [rsi+rax+128]
        vmovups ymm8, ymmword ptr [rsi+rax+160]
        vmovups ymm9, ymmword ptr [rsi+rax+192]
        vmovups ymm10, ymmword ptr [rsi+rax+224]
        vmovups ymm11, ymmword ptr [rdx+rax+0]
        vmovups ymm12, ymmword ptr [rdx+rax+32]
        vmovups ymm13, ymmword ptr [rdx+rax+64]
        vmovups ymm14, ymmword ptr [rdx+rax+96]
        vmovups ymm3, ymmword ptr [rdx+rax+128]
        vmovups ymm4, ymmword ptr [rdx+rax+160]
        vmovups ymm5, ymmword ptr [rdx+rax+192]
        vmovups ymm6, ymmword ptr [rdx+rax+224]
        vmovups ymmword ptr [rcx+rax+0], ymm1
        vmovups ymmword ptr [rcx+rax+32], ymm1
        vmovups ymmword ptr [rcx+rax+64], ymm1
        vmovups ymmword ptr [rcx+rax+96], ymm1
        vmovups ymmword ptr [rcx+rax+128], ymm1
        vmovups ymmword ptr [rcx+rax+160], ymm1
        vmovups ymmword ptr [rcx+rax+192], ymm1
        vmovups ymmword ptr [rcx+rax+224], ymm1
        add rax, 256
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
