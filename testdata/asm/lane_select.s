# Lane-selecting extracts and inserts on Zen 4: with immediate 1 (the upper lane, as
# compilers emit them) they run on the shuffle pipes FP1/FP2, a 512-bit one taking both for a
# cycle; `suaca measure` measured them with immediate 2 (the lowest lane, a plain move, two a
# cycle on any pipe) before (src/measure/plan/regs.rs `imm_value`). Loops of independent
# instructions; `suaca profile` on Zen 4 (family 25 model 17, 2026-11-26) measured the cycles
# per iteration noted after each description.
        .intel_syntax noprefix
        .text
        .globl f
        .p2align 6
f:
# six vpmovzxwd zmm, ymm: 6.00
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:      vpmovzxwd zmm0, ymm20
        vpmovzxwd zmm1, ymm20
        vpmovzxwd zmm2, ymm20
        vpmovzxwd zmm3, ymm20
        vpmovzxwd zmm4, ymm20
        vpmovzxwd zmm5, ymm20
        add rax, 1
        cmp rax, rdx
        jne 1b
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# six vextracti64x4 ymm, zmm, 1 (the upper half): 6.00
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:      vextracti64x4 ymm8, zmm21, 1
        vextracti64x4 ymm9, zmm21, 1
        vextracti64x4 ymm10, zmm21, 1
        vextracti64x4 ymm11, zmm21, 1
        vextracti64x4 ymm12, zmm21, 1
        vextracti64x4 ymm13, zmm21, 1
        add rax, 1
        cmp rax, rdx
        jne 1b
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# six vpmovzxwd and three vextracti64x4: 9.00
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:      vpmovzxwd zmm0, ymm20
        vpmovzxwd zmm1, ymm20
        vpmovzxwd zmm2, ymm20
        vpmovzxwd zmm3, ymm20
        vpmovzxwd zmm4, ymm20
        vpmovzxwd zmm5, ymm20
        vextracti64x4 ymm8, zmm21, 1
        vextracti64x4 ymm9, zmm21, 1
        vextracti64x4 ymm10, zmm21, 1
        add rax, 1
        cmp rax, rdx
        jne 1b
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# three vextracti128 xmm, ymm, 1 and three vinserti128 ymm, ymm, xmm, 1: 3.00
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:      vextracti128 xmm8, ymm1, 1
        vextracti128 xmm9, ymm1, 1
        vextracti128 xmm10, ymm1, 1
        vinserti128 ymm12, ymm2, xmm3, 1
        vinserti128 ymm13, ymm2, xmm3, 1
        vinserti128 ymm14, ymm2, xmm3, 1
        add rax, 1
        cmp rax, rdx
        jne 1b
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
        ret
