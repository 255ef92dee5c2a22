# Error fixture: markers only in .data (e.g. a byte array that copies them); the code has none.
        .intel_syntax noprefix
        .text
        .globl  data_markers
data_markers:
        ret
        .data
        .globl  marked_bytes
marked_bytes:
        .byte   0x00, 0x00, 0x00, 0x00
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90  # IACA start at .data+0x4
        .byte   0x48, 0x01, 0xD8                                 # add rax, rbx
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90  # IACA end
