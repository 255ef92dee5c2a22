# Error fixture: code without any marker.
        .intel_syntax noprefix
        .text
        .globl  no_markers
no_markers:
        add     rax, rbx
        ret
