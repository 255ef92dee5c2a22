# Zen 4 loops of loads and integer operations on them (leads, not modelled; scripts/README.md
# "An integer µop consuming a load in a loop of four macro-ops"). Every loop closes with
# `cmp rdi, rax; jne`. `suaca profile --processes 3` on Zen 4 (family 25 model 17,
# 2026-11-26) measured the cycles per iteration noted before each region; suaca predicts
# 1.00 for all. Where three runs (two files) differed, the range is noted; the processes of
# one run agree within 0.05. More independent work per iteration is faster: a fourth ALU
# operation or a second load-op chain brings the slow ones to 1.00. The 1.34 region is gcc
# `add_i32`'s body, as in load_fed_alu.s (1.35 there, closed by another register pair).
        .intel_syntax noprefix
        .text
        .p2align 6
# 1.15: add r9d, [rsi+rax*4]; add rax, 1
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        add r9d, [rsi+rax*4]
        add rax, 1
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.075: add r9d, [rsi+rax*4]; add rax, 1; xor r11d, r11d
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        add r9d, [rsi+rax*4]
        add rax, 1
        xor r11d, r11d
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.00: add r9d, [rsi+rax*4]; add rax, 1; mov r11d, 1
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        add r9d, [rsi+rax*4]
        add rax, 1
        mov r11d, 1
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.00: add r9d, [rsi+rax*4]; add r10d, [rdx+rax*4]; add rax, 1
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        add r9d, [rsi+rax*4]
        add r10d, [rdx+rax*4]
        add rax, 1
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.00: mov r8d, [rsi+rax*4]; add rax, 1
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        mov r8d, [rsi+rax*4]
        add rax, 1
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.00: mov r8d, [rsi+rax*4]; add r9d, r8d; add rax, 1; mov r11d, 1
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        mov r8d, [rsi+rax*4]
        add r9d, r8d
        add rax, 1
        mov r11d, 1
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.13-1.16: add r9d, [rsi+rax*4]; lea rax, [rax+1]
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        add r9d, [rsi+rax*4]
        lea rax, [rax+1]
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.18-1.21: add r9, [rsi+rax]; add rax, 8
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        add r9, [rsi+rax]
        add rax, 8
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.23: mov r8d, [rsi+rax*4]; add r9d, r8d; add rax, 1
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        mov r8d, [rsi+rax*4]
        add r9d, r8d
        add rax, 1
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.15-1.24: mov r8d, [rdx+rax*4]; add r8d, [rsi+rax*4]; add rax, 1
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        mov r8d, [rdx+rax*4]
        add r8d, [rsi+rax*4]
        add rax, 1
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.34: mov r8d, [rdx+rax*4]; add r8d, [rsi+rax*4]; mov [rcx+rax*4], r8d; add rax, 1
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        mov r8d, [rdx+rax*4]
        add r8d, [rsi+rax*4]
        mov [rcx+rax*4], r8d
        add rax, 1
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.00: mov r8d, [rdx+rax*4]; mov r9d, [rsi+rax*4]; mov [rcx+rax*4], r8d; add rax, 1
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        mov r8d, [rdx+rax*4]
        mov r9d, [rsi+rax*4]
        mov [rcx+rax*4], r8d
        add rax, 1
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 0.99: mov r8d, [rdx+rax*4]; add r8d, 1; mov [rcx+rax*4], r8d; add rax, 1
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        mov r8d, [rdx+rax*4]
        add r8d, 1
        mov [rcx+rax*4], r8d
        add rax, 1
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 0.99: add r9d, [rsi]; add rax, 1
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        add r9d, [rsi]
        add rax, 1
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.00: add r9d, r10d; add rax, 1
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        add r9d, r10d
        add rax, 1
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.00: mov r8d, [rdx+rax*4]; imul r8d, [rsi+rax*4]; add rax, 1
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        mov r8d, [rdx+rax*4]
        imul r8d, [rsi+rax*4]
        add rax, 1
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.075: add r8d, [rsi+rax*4]; xor r8d, r8d; add rax, 1
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        add r8d, [rsi+rax*4]
        xor r8d, r8d
        add rax, 1
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.15: add dword ptr [rsi+rax*4], ecx; add rax, 1
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        add dword ptr [rsi+rax*4], ecx
        add rax, 1
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
