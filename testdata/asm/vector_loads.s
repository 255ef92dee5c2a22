# Vector loads per cycle on Zen 4 (scripts/README.md, "Loop benchmark"): two 64-byte loads
# and four 32-byte loads per iteration. `suaca profile` on Zen 4 (family 25 model 17, KVM,
# 2026-11-25): 2.27 and 2.10 cycles per iteration (at most 64 bytes of vector loads per
# cycle); suaca predicts 1.06 and 1.38 (not modelled yet).
        .intel_syntax noprefix
        .text
        .p2align 6
f:
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovups zmm0, [rsi+rax]
        vmovups zmm1, [rsi+rax+64]
        add rax, 128
        cmp rax, rdi
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovups ymm0, [rsi+rax]
        vmovups ymm1, [rsi+rax+32]
        vmovups ymm2, [rsi+rax+64]
        vmovups ymm3, [rsi+rax+96]
        add rax, 128
        cmp rax, rdi
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        ret
