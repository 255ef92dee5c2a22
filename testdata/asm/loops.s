# `suaca profile` on loop regions (issue #14): each region ends with its back branch and has
# steady-state cycles per iteration known on any x86-64 core (a dependency chain longer than
# anything else in the loop). 0: add chain, dec+jnz, the branch aiming at the start marker
# (as a compiled IACA_START inside a loop leaves it), 1.0; 1: imul chain, dec+jnz, 3.0; 2: imul
# chain through loads from a pointer stepped by 8 and compared with a register (gcc's form), 3.0;
# 3: the same through clang's negative index counting up to zero, 3.0; 4: imul chain, a 32-bit
# counter compared with an immediate (jl), 3.0 (an add chain read 1.16 on family 6 model 167);
# 5: an add chain beside a 16-byte load stepped by 32 (the profiler lowers N to 128 to keep
# the arrays in L1), 1.0 (0.80 on family 6 model 167 while passes overlapped, before the
# loop kernel's lfence between passes).
        .intel_syntax noprefix
        .text
        .globl  loops
loops:
1:      .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90  # IACA start (region 0)
        add     rax, rcx
        dec     rdx
        jnz     1b
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90  # IACA end
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90  # IACA start (region 1)
1:      imul    rax, rcx
        dec     rdx
        jnz     1b
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90  # IACA end
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90  # IACA start (region 2)
1:      imul    rbx, qword ptr [rax]
        add     rax, 8
        cmp     rax, rsi
        jne     1b
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90  # IACA end
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90  # IACA start (region 3)
1:      imul    rbx, qword ptr [rdi + 8*rax]
        add     rax, 1
        jnz     1b
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90  # IACA end
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90  # IACA start (region 4)
1:      imul    rax, rdx
        inc     ecx
        cmp     ecx, 1000
        jl      1b
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90  # IACA end
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90  # IACA start (region 5)
1:      movdqu  xmm2, xmmword ptr [rax]
        add     r8, r9
        add     rax, 32
        cmp     rax, rdx
        jne     1b
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90  # IACA end
        ret
