# The MSVC flavour of the markers (__writegsbyte(111, 111) / __writegsbyte(222, 222)),
# used where inline assembly is not available.
        .intel_syntax noprefix
        .text
        .globl  msvc
msvc:
        .byte   0x65, 0xC6, 0x04, 0x25, 0x6F, 0x00, 0x00, 0x00, 0x6F  # MSVC start: mov byte ptr gs:[111], 111
        imul    rax, rbx
        add     rax, rcx
        .byte   0x65, 0xC6, 0x04, 0x25, 0xDE, 0x00, 0x00, 0x00, 0xDE  # MSVC end: mov byte ptr gs:[222], 222
        ret
