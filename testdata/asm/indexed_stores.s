# Indexed integer stores on Zen 4 (data/arch/ZEN4.toml `fusion.unlaminate_indexed =
# "indexed_integer_stores"`, `scheduler.whole_instruction_dispatch`): loops of zero idioms
# (a dispatch slot each, no port) with one store, closed by `add rax, 1; cmp rcx, rax; jne`
# (two macro-ops). `suaca profile` on Zen 4 (family 25 model 17, 2026-11-26) measured the
# cycles per iteration noted after each loop: a store of a general-purpose register or an
# immediate with an index register takes two of the six dispatch slots, and both go in one
# cycle (7 slots: 1.20, not 7/6; 13 slots: 2.20); a base-only store, a vector store and an
# indexed load take one.
        .intel_syntax noprefix
        .text
        .globl f
        .p2align 6
f:
# indexed store + 2 zero idioms (5 macro-ops): 1.00
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:      mov [rdi+rax*4], r11d
        xor r12d, r12d
        xor r13d, r13d
        add rax, 1
        cmp rcx, rax
        jne 1b
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# indexed store + 3 zero idioms (6): 1.20
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:      mov [rdi+rax*4], r11d
        xor r12d, r12d
        xor r13d, r13d
        xor r14d, r14d
        add rax, 1
        cmp rcx, rax
        jne 1b
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# indexed store + 4 zero idioms (7): 1.33
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:      mov [rdi+rax*4], r11d
        xor r12d, r12d
        xor r13d, r13d
        xor r14d, r14d
        xor r15d, r15d
        add rax, 1
        cmp rcx, rax
        jne 1b
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# indexed store + 9 zero idioms (12): 2.20
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:      mov [rdi+rax*4], r11d
        xor r12d, r12d
        xor r13d, r13d
        xor r14d, r14d
        xor r15d, r15d
        xor r10d, r10d
        xor r9d, r9d
        xor r8d, r8d
        xor ebx, ebx
        xor ebp, ebp
        add rax, 1
        cmp rcx, rax
        jne 1b
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# base-only store + 3 zero idioms (6): 1.00
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:      mov [rdi], r11d
        xor r12d, r12d
        xor r13d, r13d
        xor r14d, r14d
        add rax, 1
        cmp rcx, rax
        jne 1b
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# base-only store + 4 zero idioms (7): 1.17
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:      mov [rdi], r11d
        xor r12d, r12d
        xor r13d, r13d
        xor r14d, r14d
        xor r15d, r15d
        add rax, 1
        cmp rcx, rax
        jne 1b
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# indexed vector store + 4 zero idioms (7): 1.16
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:      vmovd [rdi+rax*4], xmm1
        xor r12d, r12d
        xor r13d, r13d
        xor r14d, r14d
        xor r15d, r15d
        add rax, 1
        cmp rcx, rax
        jne 1b
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# indexed load + 4 zero idioms (7): 1.16
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:      mov r8d, [rdx+rax*4]
        xor r13d, r13d
        xor r14d, r14d
        xor r15d, r15d
        xor r10d, r10d
        add rax, 1
        cmp rcx, rax
        jne 1b
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# two indexed stores to one line + 1 zero idiom (5): 1.25
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:      mov [rdi+rax*8], r11d
        mov [rdi+rax*8+4], r11d
        xor r12d, r12d
        add rax, 1
        cmp rcx, rax
        jne 1b
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# indexed immediate store + 3 zero idioms (6): 1.20
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:      mov dword ptr [rdi+rax*4], 5
        xor r12d, r12d
        xor r13d, r13d
        xor r14d, r14d
        add rax, 1
        cmp rcx, rax
        jne 1b
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
        ret
