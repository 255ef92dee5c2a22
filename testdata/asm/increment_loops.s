# `a[i]++` loops on the Intel host (Redwood Cove, taken as MTL-P; issue #14's example). `suaca
# profile --processes 3 --arch MTL-P` on the Intel host (CPUID family 6 model 167 reported,
# 2026-11-28, two runs: before and after the profiler put an lfence between a loop's runs)
# measured the cycles per iteration noted before each loop. gcc -O2's pointer form: 0.726,
# 0.724, predicted 0.67 (four issue slots; each increment writes a new element, no chain); the
# indexed form: 1.00, 1.00, predicted 1.00 (the ports bind: MTL-P's indexed record of the
# read-modify-write has seven µops).
        .intel_syntax noprefix
        .text
        .globl f
        .p2align 6
f:
# 0.73, 0.72: a[i]++ gcc -O2 (pointer)
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        add dword ptr [rax], 1
        add rax, 4
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.00, 1.00: a[i]++ indexed
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        add dword ptr [rdi+rax*4], 1
        add rax, 1
        cmp rax, rsi
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
