# Stores per cycle on Zen 4 (src/analysis/details/ports.rs `store_groups`, data/arch/ZEN4.toml
# `memory.store_data_bytes`): loops that store
# 64, 32, 2 x 16 and 2 x 32 bytes per iteration to one array. `suaca profile` on Zen 4
# (2026-11-25): 2.00, 1.00, 2.00 and 2.00 cycles per iteration.
        .intel_syntax noprefix
        .text
        .p2align 6
f:
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovupd [rdi+rax], zmm1
        add rax, 64
        cmp rax, rsi
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovupd [rdi+rax], ymm1
        add rax, 32
        cmp rax, rsi
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        movups [rdi+rax], xmm1
        movups [rdi+rax+16], xmm2
        add rax, 32
        cmp rax, rsi
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovupd [rdi+rax], ymm1
        vmovupd [rdi+rax+32], ymm2
        add rax, 64
        cmp rax, rsi
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        ret
