# Loads with an index register on the Intel host (Redwood Cove, taken as MTL-P; a lead, not
# modelled: scripts/README.md "Where the rest is"). `suaca profile --processes 3 --arch
# MTL-P` on the Intel host (CPUID family 6 model 167 reported, 2026-11-28, two runs)
# measured the cycles per iteration noted before each loop (the loops step r11, not the
# index, so the addresses stay fixed). Twelve loads with base and displacement run three a
# cycle (4.00), with an index register, scaled or not, 2.78 a cycle (4.32), 8-, 16- and
# 32-byte loads alike; half of them indexed 4.15-4.18, between the two. MTL-P predicts 4.00
# for all. In the loop set the load ports bind few loops, so a cost per indexed load moves
# three of 487 (an ad-hoc estimate).
        .intel_syntax noprefix
        .text
        .globl f
        .p2align 6
f:
# 4.00: twelve 32-byte loads, base + displacement
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovdqu ymm1, ymmword ptr [rsi+0]
        vmovdqu ymm2, ymmword ptr [rsi+32]
        vmovdqu ymm3, ymmword ptr [rsi+64]
        vmovdqu ymm4, ymmword ptr [rsi+96]
        vmovdqu ymm5, ymmword ptr [rsi+128]
        vmovdqu ymm6, ymmword ptr [rsi+160]
        vmovdqu ymm7, ymmword ptr [rsi+192]
        vmovdqu ymm8, ymmword ptr [rsi+224]
        vmovdqu ymm9, ymmword ptr [rsi+256]
        vmovdqu ymm10, ymmword ptr [rsi+288]
        vmovdqu ymm11, ymmword ptr [rsi+320]
        vmovdqu ymm12, ymmword ptr [rsi+352]
        add r11, 64
        cmp r11, r8
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 4.32: the same with an index register (rax, not stepped)
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovdqu ymm1, ymmword ptr [rsi+rax+0]
        vmovdqu ymm2, ymmword ptr [rsi+rax+32]
        vmovdqu ymm3, ymmword ptr [rsi+rax+64]
        vmovdqu ymm4, ymmword ptr [rsi+rax+96]
        vmovdqu ymm5, ymmword ptr [rsi+rax+128]
        vmovdqu ymm6, ymmword ptr [rsi+rax+160]
        vmovdqu ymm7, ymmword ptr [rsi+rax+192]
        vmovdqu ymm8, ymmword ptr [rsi+rax+224]
        vmovdqu ymm9, ymmword ptr [rsi+rax+256]
        vmovdqu ymm10, ymmword ptr [rsi+rax+288]
        vmovdqu ymm11, ymmword ptr [rsi+rax+320]
        vmovdqu ymm12, ymmword ptr [rsi+rax+352]
        add r11, 64
        cmp r11, r8
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 4.32-4.33: the same with a scaled index
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovdqu ymm1, ymmword ptr [rsi+rax*4+0]
        vmovdqu ymm2, ymmword ptr [rsi+rax*4+32]
        vmovdqu ymm3, ymmword ptr [rsi+rax*4+64]
        vmovdqu ymm4, ymmword ptr [rsi+rax*4+96]
        vmovdqu ymm5, ymmword ptr [rsi+rax*4+128]
        vmovdqu ymm6, ymmword ptr [rsi+rax*4+160]
        vmovdqu ymm7, ymmword ptr [rsi+rax*4+192]
        vmovdqu ymm8, ymmword ptr [rsi+rax*4+224]
        vmovdqu ymm9, ymmword ptr [rsi+rax*4+256]
        vmovdqu ymm10, ymmword ptr [rsi+rax*4+288]
        vmovdqu ymm11, ymmword ptr [rsi+rax*4+320]
        vmovdqu ymm12, ymmword ptr [rsi+rax*4+352]
        add r11, 64
        cmp r11, r8
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 4.15-4.18: every other load indexed
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovdqu ymm1, ymmword ptr [rsi+0]
        vmovdqu ymm2, ymmword ptr [rsi+rax+32]
        vmovdqu ymm3, ymmword ptr [rsi+64]
        vmovdqu ymm4, ymmword ptr [rsi+rax+96]
        vmovdqu ymm5, ymmword ptr [rsi+128]
        vmovdqu ymm6, ymmword ptr [rsi+rax+160]
        vmovdqu ymm7, ymmword ptr [rsi+192]
        vmovdqu ymm8, ymmword ptr [rsi+rax+224]
        vmovdqu ymm9, ymmword ptr [rsi+256]
        vmovdqu ymm10, ymmword ptr [rsi+rax+288]
        vmovdqu ymm11, ymmword ptr [rsi+320]
        vmovdqu ymm12, ymmword ptr [rsi+rax+352]
        add r11, 64
        cmp r11, r8
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 3.98: twelve 8-byte loads, base + displacement
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        mov r9, qword ptr [rsi+0]
        mov r10, qword ptr [rsi+32]
        mov r12, qword ptr [rsi+64]
        mov r13, qword ptr [rsi+96]
        mov r14, qword ptr [rsi+128]
        mov r15, qword ptr [rsi+160]
        mov rbx, qword ptr [rsi+192]
        mov rbp, qword ptr [rsi+224]
        mov rcx, qword ptr [rsi+256]
        mov rdx, qword ptr [rsi+288]
        mov rdi, qword ptr [rsi+320]
        mov r9, qword ptr [rsi+352]
        add r11, 64
        cmp r11, r8
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 4.32: the same with an index register
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        mov r9, qword ptr [rsi+rax+0]
        mov r10, qword ptr [rsi+rax+32]
        mov r12, qword ptr [rsi+rax+64]
        mov r13, qword ptr [rsi+rax+96]
        mov r14, qword ptr [rsi+rax+128]
        mov r15, qword ptr [rsi+rax+160]
        mov rbx, qword ptr [rsi+rax+192]
        mov rbp, qword ptr [rsi+rax+224]
        mov rcx, qword ptr [rsi+rax+256]
        mov rdx, qword ptr [rsi+rax+288]
        mov rdi, qword ptr [rsi+rax+320]
        mov r9, qword ptr [rsi+rax+352]
        add r11, 64
        cmp r11, r8
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 4.32-4.33: twelve 16-byte loads with an index register
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovdqu xmm1, xmmword ptr [rsi+rax+0]
        vmovdqu xmm2, xmmword ptr [rsi+rax+32]
        vmovdqu xmm3, xmmword ptr [rsi+rax+64]
        vmovdqu xmm4, xmmword ptr [rsi+rax+96]
        vmovdqu xmm5, xmmword ptr [rsi+rax+128]
        vmovdqu xmm6, xmmword ptr [rsi+rax+160]
        vmovdqu xmm7, xmmword ptr [rsi+rax+192]
        vmovdqu xmm8, xmmword ptr [rsi+rax+224]
        vmovdqu xmm9, xmmword ptr [rsi+rax+256]
        vmovdqu xmm10, xmmword ptr [rsi+rax+288]
        vmovdqu xmm11, xmmword ptr [rsi+rax+320]
        vmovdqu xmm12, xmmword ptr [rsi+rax+352]
        add r11, 64
        cmp r11, r8
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
