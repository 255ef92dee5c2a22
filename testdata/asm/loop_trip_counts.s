# Loop trip counts and the exit branch (docs/measurement.md, "Loops"): a loop of four
# `add r8, 1` and a load stepping 64, 256, 512 or 768 bytes, run by `suaca profile` N and 2N
# times ((t(2N) - t(N)) / N). The difference cancels the exit branch's cost only when both
# runs predict it alike. `suaca profile --processes 3 --arch MTL-P [--iterations N]` on the
# Intel host (Redwood Cove, CPUID family 6 model 167 reported, 2026-11-28), cycles an
# iteration for the four loops (suaca predicts 1.17-1.19 for each):
#   N = 8:    1.12 1.25 1.87 1.87     N = 48:  1.19 1.74 1.69 1.61
#   N = 16:   1.25 1.37 1.31 1.31     N = 64:  1.18 1.24 1.28 1.25
#   N = 32:   1.88 1.85 1.85 1.81     N = 128: 1.19 1.21 1.27 1.26
#   the profiler's choice (N = 128, then 64 in physical windows): 1.19 1.23 1.25 1.25
# Before this fixture the profiler ran them at N = 128, 48, 24 and 16 (arrays within 24 KiB):
# 1.19, 1.73, 1.3-2.4 (refused) and 1.31.
        .intel_syntax noprefix
        .text
        .globl f
        .p2align 6
f:
# stride 64
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        add r8, 1
        add r8, 1
        add r8, 1
        add r8, 1
        mov r9, qword ptr [rsi+rax]
        add rax, 64
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# stride 256
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        add r8, 1
        add r8, 1
        add r8, 1
        add r8, 1
        mov r9, qword ptr [rsi+rax]
        add rax, 256
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# stride 512
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        add r8, 1
        add r8, 1
        add r8, 1
        add r8, 1
        mov r9, qword ptr [rsi+rax]
        add rax, 512
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# stride 768
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        add r8, 1
        add r8, 1
        add r8, 1
        add r8, 1
        mov r9, qword ptr [rsi+rax]
        add rax, 768
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
