# A front-end lead on the Intel host (Redwood Cove, taken as MTL-P), not modelled: a small loop
# with `popcnt` or `tzcnt` reading memory (F3 REX.W 0F B8/BC with a memory operand) runs at
# 1.00 or about 1.44 cycles an iteration depending only on where the loop starts in its
# 64-byte line. `suaca profile --processes 3 --arch MTL-P` on the Intel host (CPUID family 6
# model 167 reported, 2026-11-28, two runs alike) measured, for gcc -O2 -march=native's
# popcount_sum loop (`xor edx, edx; popcnt rdx, [rdi]; add rdi, 8; add rax, rdx; cmp; jne`)
# started at each even offset: 1.00 at offsets 8, 20, 34, 46, 48 and 60, 1.40-1.46 at the
# other 26 (a one-off sweep; this file keeps four of its offsets). The same loop with `popcnt` from a register (after a separate load), or with
# `mov` or `add` loading, reads 1.00 at offsets 0 and 8; without the `xor`, or with
# `tzcnt`, the slow offsets move (noted before each loop; a third run alike). suaca
# predicts 1.00 for all. The MTL-P loop set times each loop from its bytes at the start of a
# line: its `popcount_sum@gcc-O2-native` reads 1.44 there. Each loop below starts at the
# offset its comment gives (the marker's 8 bytes end there).
        .intel_syntax noprefix
        .text
        .globl f

# gcc's loop at offset 0: 1.44
        .p2align 6
        .fill 56, 1, 0x90
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        xor edx, edx
        popcnt rdx, qword ptr [rdi]
        add rdi, 8
        add rax, rdx
        cmp rcx, rdi
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
# gcc's loop at offset 8: 1.00
        .p2align 6
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        xor edx, edx
        popcnt rdx, qword ptr [rdi]
        add rdi, 8
        add rax, rdx
        cmp rcx, rdi
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
# gcc's loop at offset 20: 1.01
        .p2align 6
        .fill 12, 1, 0x90
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        xor edx, edx
        popcnt rdx, qword ptr [rdi]
        add rdi, 8
        add rax, rdx
        cmp rcx, rdi
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
# gcc's loop at offset 34: 1.01
        .p2align 6
        .fill 26, 1, 0x90
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        xor edx, edx
        popcnt rdx, qword ptr [rdi]
        add rdi, 8
        add rax, rdx
        cmp rcx, rdi
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
# without the xor, offset 0: 1.00
        .p2align 6
        .fill 56, 1, 0x90
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        popcnt rdx, qword ptr [rdi]
        add rdi, 8
        add rax, rdx
        cmp rcx, rdi
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
# without the xor, offset 8: 1.45
        .p2align 6
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        popcnt rdx, qword ptr [rdi]
        add rdi, 8
        add rax, rdx
        cmp rcx, rdi
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
# tzcnt, offset 0: 1.43
        .p2align 6
        .fill 56, 1, 0x90
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        xor edx, edx
        tzcnt rdx, qword ptr [rdi]
        add rdi, 8
        add rax, rdx
        cmp rcx, rdi
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
# tzcnt, offset 8: 1.01
        .p2align 6
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        xor edx, edx
        tzcnt rdx, qword ptr [rdi]
        add rdi, 8
        add rax, rdx
        cmp rcx, rdi
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
# popcnt from a register after a load, offset 0: 1.01
        .p2align 6
        .fill 56, 1, 0x90
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        mov r8, qword ptr [rdi]
        xor edx, edx
        popcnt rdx, r8
        add rdi, 8
        add rax, rdx
        cmp rcx, rdi
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
# a plain load instead, offset 0: 1.00
        .p2align 6
        .fill 56, 1, 0x90
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        xor edx, edx
        mov rdx, qword ptr [rdi]
        add rdi, 8
        add rax, rdx
        cmp rcx, rdi
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
