# Which fused branches take an integer ALU on Zen 4 (data/arch/ZEN4.toml
# `fusion.fused_writer_on_alu`): loops of independent one-cycle add chains closed by their back
# branch. `suaca profile` on Zen 4 (family 25 model 17, 2026-11-26) measured the cycles per
# iteration noted after each loop's description: a fused `dec; jnz` takes one of the four ALUs,
# a fused `cmp; jne` and a lone `jnz` take none.
        .intel_syntax noprefix
        .text
        .globl f
        .p2align 6
f:
# 3 adds; dec; jnz: 1.00
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:      add r8d, 1
        add r9d, 1
        add r10d, 1
        dec rcx
        jnz 1b
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 4 adds; dec; jnz: 1.25
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:      add r8d, 1
        add r9d, 1
        add r10d, 1
        add r11d, 1
        dec rcx
        jnz 1b
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 5 adds; dec; jnz: 1.50
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:      add r8d, 1
        add r9d, 1
        add r10d, 1
        add r11d, 1
        add r12d, 1
        dec rcx
        jnz 1b
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 7 adds; dec; jnz: 2.00
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:      add r8d, 1
        add r9d, 1
        add r10d, 1
        add r11d, 1
        add r12d, 1
        add r13d, 1
        add r14d, 1
        dec rcx
        jnz 1b
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 3 adds; add rcx; cmp; jne: 1.25
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:      add r8d, 1
        add r9d, 1
        add r10d, 1
        add rcx, 1
        cmp rcx, rdx
        jne 1b
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 3 adds; dec; lea; jnz (not fused): 1.25
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:      add r8d, 1
        add r9d, 1
        add r10d, 1
        dec rcx
        lea rax, [rax+1]
        jnz 1b
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 2 adds; dec; lea; jnz (not fused): 1.00
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:      add r8d, 1
        add r9d, 1
        dec rcx
        lea rax, [rax+1]
        jnz 1b
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
        ret
