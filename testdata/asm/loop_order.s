# Zen 4 loops whose instruction order alone moves them (scripts/README.md, "Loop benchmark",
# count_byte lead; not modelled: suaca predicts 1.00 for every region). `suaca profile
# --processes 3` on Zen 4 (family 25 model 17, 2026-11-26) measured the cycles per iteration
# noted before each region; the three processes agreed within 0.01. A second run the same day
# read the same within 0.01 but for the regions with gcc's order (2.00 → 1.95) and with the
# `xor` between compare and `add rdi` (2.12 → 1.96). Each loop
# closes with `cmp rdx, rdi; jne`; `[rdi-1]` where `add rdi, 1` comes first.
        .intel_syntax noprefix
        .text
        .globl f
        .p2align 6
f:
# 1.62: add rdi, 1; xor ecx, ecx; cmp byte ptr [rdi-1], sil; sete cl; add rax, rcx
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        add rdi, 1
        xor ecx, ecx
        cmp byte ptr [rdi-1], sil
        sete cl
        add rax, rcx
        cmp rdx, rdi
        jne 1b
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.62: xor ecx, ecx; add rdi, 1; cmp byte ptr [rdi-1], sil; sete cl; add rax, rcx
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        xor ecx, ecx
        add rdi, 1
        cmp byte ptr [rdi-1], sil
        sete cl
        add rax, rcx
        cmp rdx, rdi
        jne 1b
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.96: xor ecx, ecx; cmp byte ptr [rdi], sil; add rdi, 1; sete cl; add rax, rcx
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        xor ecx, ecx
        cmp byte ptr [rdi], sil
        add rdi, 1
        sete cl
        add rax, rcx
        cmp rdx, rdi
        jne 1b
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 2.00: xor ecx, ecx; cmp byte ptr [rdi], sil; sete cl; add rdi, 1; add rax, rcx
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        xor ecx, ecx
        cmp byte ptr [rdi], sil
        sete cl
        add rdi, 1
        add rax, rcx
        cmp rdx, rdi
        jne 1b
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.50: xor ecx, ecx; cmp byte ptr [rdi], sil; sete cl; add rax, rcx; add rdi, 1
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        xor ecx, ecx
        cmp byte ptr [rdi], sil
        sete cl
        add rax, rcx
        add rdi, 1
        cmp rdx, rdi
        jne 1b
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.53: add rdi, 1; cmp byte ptr [rdi-1], sil; xor ecx, ecx; sete cl; add rax, rcx
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        add rdi, 1
        cmp byte ptr [rdi-1], sil
        xor ecx, ecx
        sete cl
        add rax, rcx
        cmp rdx, rdi
        jne 1b
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.43: cmp byte ptr [rdi], sil; add rdi, 1; xor ecx, ecx; sete cl; add rax, rcx
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        cmp byte ptr [rdi], sil
        add rdi, 1
        xor ecx, ecx
        sete cl
        add rax, rcx
        cmp rdx, rdi
        jne 1b
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 2.12: cmp byte ptr [rdi], sil; xor ecx, ecx; add rdi, 1; sete cl; add rax, rcx
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        cmp byte ptr [rdi], sil
        xor ecx, ecx
        add rdi, 1
        sete cl
        add rax, rcx
        cmp rdx, rdi
        jne 1b
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.57: cmp byte ptr [rdi], sil; xor ecx, ecx; sete cl; add rdi, 1; add rax, rcx
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        cmp byte ptr [rdi], sil
        xor ecx, ecx
        sete cl
        add rdi, 1
        add rax, rcx
        cmp rdx, rdi
        jne 1b
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.44: cmp byte ptr [rdi], sil; xor ecx, ecx; sete cl; add rax, rcx; add rdi, 1
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        cmp byte ptr [rdi], sil
        xor ecx, ecx
        sete cl
        add rax, rcx
        add rdi, 1
        cmp rdx, rdi
        jne 1b
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.20: add rdi, 1; xor ecx, ecx; cmp r8b, sil; sete cl; add rax, rcx
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        add rdi, 1
        xor ecx, ecx
        cmp r8b, sil
        sete cl
        add rax, rcx
        cmp rdx, rdi
        jne 1b
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.20: xor ecx, ecx; add rdi, 1; cmp r8b, sil; sete cl; add rax, rcx
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        xor ecx, ecx
        add rdi, 1
        cmp r8b, sil
        sete cl
        add rax, rcx
        cmp rdx, rdi
        jne 1b
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.50: xor ecx, ecx; cmp r8b, sil; add rdi, 1; sete cl; add rax, rcx
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        xor ecx, ecx
        cmp r8b, sil
        add rdi, 1
        sete cl
        add rax, rcx
        cmp rdx, rdi
        jne 1b
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.22: xor ecx, ecx; cmp r8b, sil; sete cl; add rdi, 1; add rax, rcx
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        xor ecx, ecx
        cmp r8b, sil
        sete cl
        add rdi, 1
        add rax, rcx
        cmp rdx, rdi
        jne 1b
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.20: xor ecx, ecx; cmp r8b, sil; sete cl; add rax, rcx; add rdi, 1
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        xor ecx, ecx
        cmp r8b, sil
        sete cl
        add rax, rcx
        add rdi, 1
        cmp rdx, rdi
        jne 1b
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.65: add rdi, 1; mov r9, qword ptr [rdi-1]; add r9, 1; add rax, r9
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        add rdi, 1
        mov r9, qword ptr [rdi-1]
        add r9, 1
        add rax, r9
        cmp rdx, rdi
        jne 1b
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.43: mov r9, qword ptr [rdi]; add rdi, 1; add r9, 1; add rax, r9
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        mov r9, qword ptr [rdi]
        add rdi, 1
        add r9, 1
        add rax, r9
        cmp rdx, rdi
        jne 1b
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.45: mov r9, qword ptr [rdi]; add r9, 1; add rdi, 1; add rax, r9
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        mov r9, qword ptr [rdi]
        add r9, 1
        add rdi, 1
        add rax, r9
        cmp rdx, rdi
        jne 1b
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.61: mov r9, qword ptr [rdi]; add r9, 1; add rax, r9; add rdi, 1
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        mov r9, qword ptr [rdi]
        add r9, 1
        add rax, r9
        add rdi, 1
        cmp rdx, rdi
        jne 1b
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
        ret
