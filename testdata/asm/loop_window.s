# The op-cache window on Zen 4 (data/arch/ZEN4.toml `uop_cache_window_bytes`): region 0 is an
# AVX2 saxpy loop inside one 64-byte line, region 1 the same loop across two lines.
# `suaca profile` measured 1.06 and 2.00 cycles per iteration on Zen 4 (2026-11-25).
        .intel_syntax noprefix
        .text
        .p2align 6
f:
        .skip 8, 0x90
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovups ymm1, [rsi+rax]
        vfmadd213ps ymm1, ymm2, [rcx+rax]
        vmovups [rcx+rax], ymm1
        add rax, 32
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
        .skip 48, 0x90
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovups ymm1, [rsi+rax]
        vfmadd213ps ymm1, ymm2, [rcx+rax]
        vmovups [rcx+rax], ymm1
        add rax, 32
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        ret
