# A well-formed region whose bytes do not decode: 0x06 (push es) is invalid in 64-bit
# mode. The input layer accepts it (it does not decode); the decoder must reject it.
        .intel_syntax noprefix
        .text
        .globl  undecodable
undecodable:
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90  # IACA start
        add     rax, rbx
        .byte   0x06
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90  # IACA end
        ret
