# Masked loads and the child's page table (docs/measurement.md, "Loops"): gcc -O3
# -march=x86-64-v3's select_f64 loop, then without its store, then its vmaskmovpd alone (the
# mask all zero). `suaca profile --processes 3 --arch MTL-P` on the Intel host (Redwood
# Cove, CPUID family 6 model 167 reported, 2026-11-28) read 296, 293 and 323 cycles an
# iteration where nothing else touched the masked load's pages (a microcode assist each
# time: the forked child had no page-table entries for them), and 2.59, 2.48 and 0.66 once
# every child fills its page table (`DataMem::populate`); predicted 2.27, 1.88 and 0.66.
        .intel_syntax noprefix
        .text
        .globl f
        .p2align 6
f:
# orig
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vcmpltpd ymm1, ymm3, ymmword ptr [rsi+rax]
        vpxor ymm0, ymm2, ymm1
        vmaskmovpd ymm0, ymm0, ymmword ptr [r8+rax]
        vblendvpd ymm0, ymm0, ymmword ptr [rsi+rax], ymm1
        vmovupd ymmword ptr [rdi+rax], ymm0
        add rax, 0x20
        cmp rdx, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# no store
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vcmpltpd ymm1, ymm3, ymmword ptr [rsi+rax]
        vpxor ymm0, ymm2, ymm1
        vmaskmovpd ymm0, ymm0, ymmword ptr [r8+rax]
        vblendvpd ymm0, ymm0, ymmword ptr [rsi+rax], ymm1
        add rax, 0x20
        cmp rdx, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# only maskmov
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmaskmovpd ymm0, ymm2, ymmword ptr [r8+rax]
        add rax, 0x20
        cmp rdx, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
