# Error fixture: an end marker right after the start marker (nothing to analyze).
        .intel_syntax noprefix
        .text
        .globl  empty_region
empty_region:
        nop
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90  # IACA start at .text+0x1
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90  # IACA end
        ret
