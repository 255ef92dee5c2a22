# SUACA thesis §4.3: eight `adc reg, 1` chained only through the carry flag.
        .intel_syntax noprefix
        .text
        .globl  adc8
adc8:
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90  # IACA start
        adc     rax, 1
        adc     rbx, 1
        adc     rcx, 1
        adc     rdx, 1
        adc     r8, 1
        adc     r9, 1
        adc     r10, 1
        adc     r11, 1
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90  # IACA end
        ret
