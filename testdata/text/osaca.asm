# Intel syntax, region delimited by OSACA comments.
        .intel_syntax noprefix
        .text
loop:
        # OSACA-BEGIN
        add     rbx, rax
        add     rbx, rbx   # comment after an instruction
        # OSACA-END
        ret
