# SUACA thesis §2 (and §1.3): a branch inside the region, both paths add into rbx.
        .intel_syntax noprefix
        .text
        .globl  branchy
branchy:
        # IACA start marker: mov ebx, 111; fs addr32 nop
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        mov     rax, 1
        cmp     rcx, 0
        jne     1f
        add     rbx, rax
        jmp     2f
1:      # else
        add     rbx, rax
2:      # end
        add     rbx, rbx
        # IACA end marker: mov ebx, 222; fs addr32 nop
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        ret
