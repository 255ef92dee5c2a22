# Loads and stores across a 64-byte line, on the Intel host (Redwood Cove, CPUID family 6
# model 167 reported, 2026-11-28): `suaca profile --processes 3 --arch MTL-P`, cycles an
# iteration, and MTL-P's prediction (`memory.load_split_cost = 3`, `store_split_cost = 2`;
# `--no-line-splits` in brackets). rdi is line-aligned (the profiler aligns a loop's bases as
# the model assumes); the loops do not move, every access hits L1.
#   8 loads in four lines, none across             2.68   2.67 (2.67)
#   8 loads across a line (bytes 56..88 of each)   8.92   8.33 (4.00)
#   16 loads across a line                        17.37  16.33 (8.00)
#   4 loads across a line                          4.51   4.33 (2.00)
#   4 across, 4 aligned                            6.22   5.67 (3.00)
#   4 across, 8 aligned                            7.24   7.00 (4.33)
#   8 xmm loads across a line                      8.93   8.33 (4.00)
#   8 8-byte loads across a line                   8.91   8.33 (4.00)
#   4 stores in four lines                         4.00   4.00 (4.00)
#   4 stores across a line                         8.00   8.00 (4.00)
#   4 xmm stores across a line                     8.00   8.00 (4.00)
# A split load holds every load port for about a cycle (1.09-1.13 cycles each; the aligned
# loads beside it add a third of a cycle each); a store across a line commits as two, a
# line a cycle. `add rax, -4; jne` closes each loop.
        .intel_syntax noprefix
        .text
        .globl f
        .p2align 6
f:
# 8 loads in four lines, none across
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovups ymm4, ymmword ptr [rdi+0]
        vmovups ymm5, ymmword ptr [rdi+32]
        vmovups ymm6, ymmword ptr [rdi+64]
        vmovups ymm7, ymmword ptr [rdi+96]
        vmovups ymm8, ymmword ptr [rdi+128]
        vmovups ymm9, ymmword ptr [rdi+160]
        vmovups ymm10, ymmword ptr [rdi+192]
        vmovups ymm11, ymmword ptr [rdi+224]
        add rax, -4
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 8 loads across a line (bytes 56..88 of each)
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovups ymm4, ymmword ptr [rdi+0]
        vmovups ymm5, ymmword ptr [rdi+56]
        vmovups ymm6, ymmword ptr [rdi+120]
        vmovups ymm7, ymmword ptr [rdi+184]
        vmovups ymm8, ymmword ptr [rdi+248]
        vmovups ymm9, ymmword ptr [rdi+312]
        vmovups ymm10, ymmword ptr [rdi+376]
        vmovups ymm11, ymmword ptr [rdi+440]
        vmovups ymm4, ymmword ptr [rdi+504]
        add rax, -4
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 16 loads across a line
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovups ymm4, ymmword ptr [rdi+0]
        vmovups ymm5, ymmword ptr [rdi+56]
        vmovups ymm6, ymmword ptr [rdi+120]
        vmovups ymm7, ymmword ptr [rdi+184]
        vmovups ymm8, ymmword ptr [rdi+248]
        vmovups ymm9, ymmword ptr [rdi+312]
        vmovups ymm10, ymmword ptr [rdi+376]
        vmovups ymm11, ymmword ptr [rdi+440]
        vmovups ymm4, ymmword ptr [rdi+504]
        vmovups ymm5, ymmword ptr [rdi+568]
        vmovups ymm6, ymmword ptr [rdi+632]
        vmovups ymm7, ymmword ptr [rdi+696]
        vmovups ymm8, ymmword ptr [rdi+760]
        vmovups ymm9, ymmword ptr [rdi+824]
        vmovups ymm10, ymmword ptr [rdi+888]
        vmovups ymm11, ymmword ptr [rdi+952]
        vmovups ymm4, ymmword ptr [rdi+1016]
        add rax, -4
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 4 loads across a line
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovups ymm4, ymmword ptr [rdi+0]
        vmovups ymm5, ymmword ptr [rdi+56]
        vmovups ymm6, ymmword ptr [rdi+120]
        vmovups ymm7, ymmword ptr [rdi+184]
        vmovups ymm8, ymmword ptr [rdi+248]
        add rax, -4
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 4 across, 4 aligned
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovups ymm4, ymmword ptr [rdi+0]
        vmovups ymm5, ymmword ptr [rdi+56]
        vmovups ymm6, ymmword ptr [rdi+120]
        vmovups ymm7, ymmword ptr [rdi+184]
        vmovups ymm8, ymmword ptr [rdi+248]
        vmovups ymm9, ymmword ptr [rdi+512]
        vmovups ymm10, ymmword ptr [rdi+544]
        vmovups ymm11, ymmword ptr [rdi+576]
        vmovups ymm4, ymmword ptr [rdi+608]
        add rax, -4
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 4 across, 8 aligned
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovups ymm4, ymmword ptr [rdi+0]
        vmovups ymm5, ymmword ptr [rdi+56]
        vmovups ymm6, ymmword ptr [rdi+120]
        vmovups ymm7, ymmword ptr [rdi+184]
        vmovups ymm8, ymmword ptr [rdi+248]
        vmovups ymm9, ymmword ptr [rdi+512]
        vmovups ymm10, ymmword ptr [rdi+544]
        vmovups ymm11, ymmword ptr [rdi+576]
        vmovups ymm4, ymmword ptr [rdi+608]
        vmovups ymm5, ymmword ptr [rdi+640]
        vmovups ymm6, ymmword ptr [rdi+672]
        vmovups ymm7, ymmword ptr [rdi+704]
        vmovups ymm8, ymmword ptr [rdi+736]
        add rax, -4
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 8 xmm loads across a line
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovups xmm4, xmmword ptr [rdi+0]
        vmovups xmm5, xmmword ptr [rdi+56]
        vmovups xmm6, xmmword ptr [rdi+120]
        vmovups xmm7, xmmword ptr [rdi+184]
        vmovups xmm8, xmmword ptr [rdi+248]
        vmovups xmm9, xmmword ptr [rdi+312]
        vmovups xmm10, xmmword ptr [rdi+376]
        vmovups xmm11, xmmword ptr [rdi+440]
        vmovups xmm4, xmmword ptr [rdi+504]
        add rax, -4
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 8 8-byte loads across a line
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        mov r8, qword ptr [rdi+60]
        mov r9, qword ptr [rdi+124]
        mov r10, qword ptr [rdi+188]
        mov r11, qword ptr [rdi+252]
        mov r12, qword ptr [rdi+316]
        mov r13, qword ptr [rdi+380]
        mov r8, qword ptr [rdi+444]
        mov r9, qword ptr [rdi+508]
        mov r15, qword ptr [rdi]
        add rax, -4
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 4 stores in four lines
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovups ymm4, ymmword ptr [rdi]
        vmovups ymmword ptr [rdi+64], ymm0
        vmovups ymmword ptr [rdi+128], ymm0
        vmovups ymmword ptr [rdi+192], ymm0
        vmovups ymmword ptr [rdi+256], ymm0
        add rax, -4
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 4 stores across a line
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovups ymm4, ymmword ptr [rdi]
        vmovups ymmword ptr [rdi+104], ymm0
        vmovups ymmword ptr [rdi+168], ymm0
        vmovups ymmword ptr [rdi+232], ymm0
        vmovups ymmword ptr [rdi+296], ymm0
        add rax, -4
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 4 xmm stores across a line
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovups ymm4, ymmword ptr [rdi]
        vmovups xmmword ptr [rdi+120], xmm0
        vmovups xmmword ptr [rdi+184], xmm0
        vmovups xmmword ptr [rdi+248], xmm0
        vmovups xmmword ptr [rdi+312], xmm0
        add rax, -4
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
