# Integer chains fed by port 1's multi-cycle operations (imul, popcnt) on the Intel host
# (Redwood Cove, taken as MTL-P; a lead, not modelled: docs/model.md "Vector bypass", the
# scalar counterpart). `suaca profile --processes 3 --arch MTL-P` on the Intel host (CPUID
# family 6 model 167 reported, 2026-11-28, two runs) measured the cycles per iteration noted
# before each loop; MTL-P predicts 1.00 for each (its latency-1 chain). A one-cycle chain
# reading an imul or popcnt result is slower than its latency: andn (p1/p5/B), add, or, sub
# 1.51-1.58, cmovne (p0/p6) 1.83, but shlx (p0/p6 too) 1.00: which ports or units pay is
# not clear without port counters. The same loops at another place in another file read
# add 1.28 and or 1.07 (one-off), so more than the code decides. gcc's popcount_sum loop
# reads 1.45 at offsets 0 and 32 of its line and 1.01 at 8 and 20, as popcnt_offsets.s (an
# earlier session's sweep: 1.00 at 8, 20, 34, 46, 48, 60) found; an imul-fed add chain too
# (one-off: 1.55 or 1.00 by offset). A rule that makes the chain's result late on p1
# changed no loop of the set (one-off trial): MTL-P's binding at issue keeps such chains
# off p1 beside a port-1 operation.
        .intel_syntax noprefix
        .text
        .globl f
        .p2align 6
f:
        .p2align 6
        .skip 120, 0x90
# 1.00: imul (port 1, latency 3) into a shlx chain (p0/p6)
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        imul r11, rsi, 3
        shlx r10, r10, r11
        add rax, 32
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
        .skip 120, 0x90
# 1.58/1.57: imul into an andn chain (p1/p5/B)
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        imul r11, rsi, 3
        andn r10, r11, r10
        add rax, 32
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
        .skip 120, 0x90
# 1.54/1.58: popcnt into an andn chain
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        popcnt r11, rsi
        andn r10, r11, r10
        add rax, 32
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
        .skip 120, 0x90
# 1.51/1.52: imul into an add chain
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        imul r11, rsi, 3
        add r10, r11
        add rax, 32
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
        .skip 120, 0x90
# 1.51/1.56: imul into an or chain
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        imul r11, rsi, 3
        or r10, r11
        add rax, 32
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
        .skip 120, 0x90
# 1.53/1.56: imul into a sub chain
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        imul r11, rsi, 3
        sub r10, r11
        add rax, 32
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
        .skip 120, 0x90
# 1.83: imul into a cmovne chain (p0/p6)
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        imul r11, rsi, 3
        test rsi, rsi
        cmovne r10, r11
        add rax, 32
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
        .skip 120, 0x90
# 1.58: imul into two add chains
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        imul r11, rsi, 3
        add r10, r11
        add r8, r11
        add rax, 32
        cmp rax, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
        .skip 120, 0x90
# 1.46/1.45: gcc's popcount_sum (-O2 -march=native) at offset 0 of its line
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        xor edx, edx
        popcnt rdx, qword ptr [rdi]
        add rdi, 8
        add rax, rdx
        cmp rcx, rdi
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
        .skip 64, 0x90
# 1.01: the same at offset 8
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        xor edx, edx
        popcnt rdx, qword ptr [rdi]
        add rdi, 8
        add rax, rdx
        cmp rcx, rdi
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
        .skip 76, 0x90
# 1.01: the same at offset 20
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        xor edx, edx
        popcnt rdx, qword ptr [rdi]
        add rdi, 8
        add rax, rdx
        cmp rcx, rdi
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
        .skip 88, 0x90
# 1.43/1.46: the same at offset 32
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        xor edx, edx
        popcnt rdx, qword ptr [rdi]
        add rdi, 8
        add rax, rdx
        cmp rcx, rdi
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
