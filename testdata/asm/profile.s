# `suaca profile`: two regions with known steady-state cycles per iteration on any x86-64
# core: a 1-cycle add chain, and a 3-cycle imul plus a 1-cycle add on one chain (4 cycles).
# The add takes a register, not an immediate: an Intel core of the Golden Cove kind (a KVM
# guest reporting family 6 model 167 with AVX512-FP16) runs `add reg, imm` at rename, and
# `imul rdx, rsi; add rdx, 1` measured 3.00 there.
        .intel_syntax noprefix
        .text
        .globl  profile
profile:
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90  # IACA start (region 0)
        add     rax, rcx
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90  # IACA end
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90  # IACA start (region 1)
        imul    rdx, rsi
        add     rdx, rcx
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90  # IACA end
        ret
