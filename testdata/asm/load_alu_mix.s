# Two loads and one integer operation per copy on Zen 4 (lead, not modelled). Unrolled blocks;
# `suaca profile --processes 3` on Zen 4 (family 25 model 17, 2026-11-26) measured the cycles
# per copy noted before each region: in the quiet runs (three that day) every process read
# them within 0.005; when the VM's host is busy, single processes read up to 0.92 for the
# 0.750 regions, so take the median of several. Two loads alone run at the three AGUs' 0.667; with
# one ALU operation, whatever it reads and wherever it stands, at 0.750; with two ALU
# operations at 0.667-0.684 again ("more work is faster", as in loop_order.s). suaca
# predicts 0.67 for all the 0.750 regions. The ZEN4 block set has 29 blocks of two loads
# and one ALU operation measured at 0.75 and predicted at 0.67 (scripts/README.md).
        .intel_syntax noprefix
        .text
        .globl f
        .p2align 6
f:
# 0.667: two loads
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        mov rax, [rbx]
        mov rcx, [rbx+8]
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 0.750: two loads and a test of one of them
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        mov rax, [rbx]
        mov rcx, [rbx+8]
        test rcx, rcx
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 0.750: two loads and a test of another register
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        mov rax, [rbx]
        mov rcx, [rbx+8]
        test rdx, rdx
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 0.750: two loads and an lea
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        mov rax, [rbx]
        mov rcx, [rbx+8]
        lea rdx, [rsi+8]
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 0.750: two loads and a compare of both
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        mov rax, [rbx]
        mov rcx, [rbx+8]
        cmp rax, rcx
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 0.750: load, test, load
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        mov rax, [rbx]
        test rcx, rcx
        mov rcx, [rbx+8]
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 0.752: load, sub, compare with memory (load-op)
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        mov eax, [rbx]
        sub eax, 1
        cmp dword ptr [rbx+8], 0
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 0.684: two loads and two tests
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        mov rax, [rbx]
        mov rcx, [rbx+8]
        test rcx, rcx
        test rdx, rdx
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 0.667: two loads and two leas
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        mov rax, [rbx]
        mov rcx, [rbx+8]
        lea rdx, [rsi+8]
        lea rdi, [rsi+16]
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 0.834: two loads and three ALU operations (5 / 6)
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        mov rax, [rbx]
        mov rcx, [rbx+8]
        test rcx, rcx
        lea rdx, [rsi+8]
        lea rdi, [rsi+16]
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 0.751: one load and three ALU operations (3 / 4)
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        mov rax, [rbx]
        lea rdx, [rsi+8]
        test rax, rax
        lea rdi, [rsi+16]
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
        ret
