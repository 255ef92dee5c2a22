# Zen 4 stores of 1-, 4- and 8-byte immediates to a moving address (lead, not modelled;
# scripts/README.md "ZEN4 block set"). `suaca profile --processes 3` on Zen 4 (family 25
# model 17, 2026-11-26) measured the cycles per iteration (loops closing with `cmp rdi,
# rax; jne`) or per copy noted before each region; suaca predicts 1.00 for each but the
# unrolled store to one place (0.50). A store of a register, or of a 1-byte immediate, runs
# at one a cycle; one of a 4- or 8-byte immediate whose base the code steps takes 1.2-1.7,
# and two 2.00 a pair; to a fixed place, or through a base not stepped, it runs as any
# store.
        .intel_syntax noprefix
        .text
        .p2align 6
# 1.50: an 8-byte store of an immediate, stepping 8
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        mov qword ptr [rdi], 0
        add rdi, 8
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.00: the same from a register
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        mov qword ptr [rdi], rcx
        add rdi, 8
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.49: a 4-byte store of an immediate
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        mov dword ptr [rdi], 0
        add rdi, 4
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.00: a 1-byte store of an immediate
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        mov byte ptr [rdi], 0
        add rdi, 1
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 2.00: two 8-byte stores of immediates, one block
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        mov qword ptr [rdi], 0
        mov qword ptr [rdi+8], 0
        add rdi, 16
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.00: the same from registers
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        mov qword ptr [rdi], rcx
        mov qword ptr [rdi+8], rcx
        add rdi, 16
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.34: an 8-byte immediate store and one more add
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        mov qword ptr [rdi], 0
        add r8, 1
        add rdi, 8
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.65: unrolled: an 8-byte immediate store, its base stepped and compared
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        mov qword ptr [rdx], 0
        add rdx, 8
        cmp rdx, rdi
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.00: the same from a register
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        mov qword ptr [rdx], rcx
        add rdx, 8
        cmp rdx, rdi
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.17: unrolled: the immediate store and the step
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        mov qword ptr [rdx], 0
        add rdx, 8
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 0.50: unrolled: the immediate store to one place
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        mov qword ptr [r14], 0
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.50: unrolled: the immediate store, the step and another add
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        mov qword ptr [rdx], 0
        add rdx, 8
        add rcx, 1
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.00: unrolled: the immediate store through a base the block does not step
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        mov qword ptr [rdx], 0
        add rcx, 8
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
        ret
