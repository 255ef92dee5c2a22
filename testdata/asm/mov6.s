# SUACA thesis §4.1: six independent `mov rax, 6`, bound by the three ALU ports.
        .intel_syntax noprefix
        .text
        .globl  mov6
mov6:
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90  # IACA start
        mov     rax, 6
        mov     rax, 6
        mov     rax, 6
        mov     rax, 6
        mov     rax, 6
        mov     rax, 6
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90  # IACA end
        ret
