# Error fixture: a start marker with no end marker after it.
        .intel_syntax noprefix
        .text
        .globl  start_no_end
start_no_end:
        nop
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90  # IACA start at .text+0x1
        add     rax, rbx
        ret
