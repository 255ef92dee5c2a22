# Stack slots renamed on Zen 4 (data/arch/ZEN4.toml `memory.stack_renaming`): unrolled
# blocks that copy a value down the stack, each copy's store read back by the next copy's
# load at another displacement because rsp moved between them. `suaca profile` on Zen 4
# (family 25 model 17, 2026-11-26) measured the cycles per copy noted after each block: through
# rsp the value is renamed (the add chain alone), through rbp it is forwarded.
        .intel_syntax noprefix
        .text
# through rsp, moved by sub: 1.00
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        mov rax, qword ptr [rsp+16]
        mov qword ptr [rsp+8], rax
        sub rsp, 8
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
# through rsp, moved by lea: 1.00
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        mov rax, qword ptr [rsp+16]
        mov qword ptr [rsp+8], rax
        lea rsp, [rsp-8]
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
# through rbp, moved by sub (forwarding): 5.85
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        mov rax, qword ptr [rbp+16]
        mov qword ptr [rbp+8], rax
        sub rbp, 8
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
# 32-bit, through rsp: 1.00
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        mov eax, dword ptr [rsp+16]
        mov dword ptr [rsp+8], eax
        sub rsp, 8
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
# an add between load and store, through rsp: 1.00
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        mov rax, qword ptr [rsp+16]
        add rax, 1
        mov qword ptr [rsp+8], rax
        sub rsp, 8
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
