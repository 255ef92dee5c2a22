# Zen 4: `add rsp, N` followed by pops, unrolled (lead, not modelled; scripts/README.md "A
# walk through memory, not the stack engine"). `suaca profile --processes 3` on Zen 4 (family
# 25 model 17, 2026-11-26) measured the cycles per copy noted before each region; suaca
# predicts 2.00 for all. Only the large step is slow: the copies walk through memory, the
# model assumes L1 hits. Small steps with two and four pops: testdata/asm/stack_epilogues.s.
        .intel_syntax noprefix
        .text
        .p2align 6
# 7.07: add rsp, 0x848 and six pops (the ZEN4 set's block, 7.08 there): each copy steps 2 KiB
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        add rsp, 0x848
        pop rbx
        pop rbp
        pop r12
        pop r13
        pop r14
        pop r15
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 2.12: the same with add rsp, 48
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        add rsp, 48
        pop rbx
        pop rbp
        pop r12
        pop r13
        pop r14
        pop r15
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 2.06: six pops alone
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        pop rbx
        pop rbp
        pop r12
        pop r13
        pop r14
        pop r15
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 2.11: add rsp, 48 and six mov loads from [rsp+8*k]
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        add rsp, 48
        mov rbx, [rsp]
        mov rbp, [rsp+8]
        mov r12, [rsp+16]
        mov r13, [rsp+24]
        mov r14, [rsp+32]
        mov r15, [rsp+40]
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
