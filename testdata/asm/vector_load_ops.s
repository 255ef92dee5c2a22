# Vector load-ops on the Intel host (Redwood Cove, taken as MTL-P; docs in scripts/README.md,
# "Loop benchmark", the Intel host): loops run by `suaca profile --processes 3` on 2026-11-27
# (Intel Xeon, CPUID family 6 model 167 reported, AMX, 64 KiB L1I), cycles per iteration
# after each loop's name (two runs; MTL-P's prediction with uops.info's records in
# brackets). 256-bit load-ops run at about two a cycle, whether their address is indexed or
# not, where pure 256-bit loads run at 2.6 a cycle and 128-bit load-ops at 2.7; the model
# takes three load ports for all of them. Not modelled: no mechanism established.
        .intel_syntax noprefix
        .text
# 8 vex load-op idx: 4.34, 4.34 [3.00]
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vpaddd ymm0, ymm15, [rdi+rax*4+0]
        vpaddd ymm1, ymm15, [rdi+rax*4+32]
        vpaddd ymm2, ymm15, [rdi+rax*4+64]
        vpaddd ymm3, ymm15, [rdi+rax*4+96]
        vpaddd ymm4, ymm15, [rdi+rax*4+128]
        vpaddd ymm5, ymm15, [rdi+rax*4+160]
        vpaddd ymm6, ymm15, [rdi+rax*4+192]
        vpaddd ymm7, ymm15, [rdi+rax*4+224]
        add rax, 64
        cmp rdx, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
# 8 vex load-op base: 4.17, 4.14 [2.67]
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vpaddd ymm0, ymm15, [rdi+0]
        vpaddd ymm1, ymm15, [rdi+32]
        vpaddd ymm2, ymm15, [rdi+64]
        vpaddd ymm3, ymm15, [rdi+96]
        vpaddd ymm4, ymm15, [rdi+128]
        vpaddd ymm5, ymm15, [rdi+160]
        vpaddd ymm6, ymm15, [rdi+192]
        vpaddd ymm7, ymm15, [rdi+224]
        add rdi, 256
        cmp rdx, rdi
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
# 8 sse rmw load-op idx: 2.96, 2.97 [2.67]
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        paddd xmm0, [rdi+rax*4+0]
        paddd xmm1, [rdi+rax*4+16]
        paddd xmm2, [rdi+rax*4+32]
        paddd xmm3, [rdi+rax*4+48]
        paddd xmm4, [rdi+rax*4+64]
        paddd xmm5, [rdi+rax*4+80]
        paddd xmm6, [rdi+rax*4+96]
        paddd xmm7, [rdi+rax*4+112]
        add rax, 64
        cmp rdx, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
# 8 loads idx: 3.05, 3.05 [2.67]
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovdqu ymm0, [rdi+rax*4+0]
        vmovdqu ymm1, [rdi+rax*4+32]
        vmovdqu ymm2, [rdi+rax*4+64]
        vmovdqu ymm3, [rdi+rax*4+96]
        vmovdqu ymm4, [rdi+rax*4+128]
        vmovdqu ymm5, [rdi+rax*4+160]
        vmovdqu ymm6, [rdi+rax*4+192]
        vmovdqu ymm7, [rdi+rax*4+224]
        add rax, 64
        cmp rdx, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
# 4 vex load-op idx: 2.23, 2.23 [1.67]
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vpaddd ymm0, ymm15, [rdi+rax*4+0]
        vpaddd ymm1, ymm15, [rdi+rax*4+32]
        vpaddd ymm2, ymm15, [rdi+rax*4+64]
        vpaddd ymm3, ymm15, [rdi+rax*4+96]
        add rax, 64
        cmp rdx, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
# 4 vex load-op idx + 4 xor: 2.59, 2.47 [2.33]
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vpaddd ymm0, ymm15, [rdi+rax*4+0]
        xor r8d, r8d
        vpaddd ymm1, ymm15, [rdi+rax*4+32]
        xor r9d, r9d
        vpaddd ymm2, ymm15, [rdi+rax*4+64]
        xor r10d, r10d
        vpaddd ymm3, ymm15, [rdi+rax*4+96]
        xor r11d, r11d
        add rax, 64
        cmp rdx, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90

# 16 vaddpd ymm, ymm, [rdi+rdx*8+k] into four accumulators (clang's sum_f64): 11.47, 11.45 [8.00]
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vaddpd ymm0, ymm0, [rdi+rdx*8+0]
        vaddpd ymm1, ymm1, [rdi+rdx*8+32]
        vaddpd ymm2, ymm2, [rdi+rdx*8+64]
        vaddpd ymm3, ymm3, [rdi+rdx*8+96]
        vaddpd ymm0, ymm0, [rdi+rdx*8+128]
        vaddpd ymm1, ymm1, [rdi+rdx*8+160]
        vaddpd ymm2, ymm2, [rdi+rdx*8+192]
        vaddpd ymm3, ymm3, [rdi+rdx*8+224]
        vaddpd ymm0, ymm0, [rdi+rdx*8+256]
        vaddpd ymm1, ymm1, [rdi+rdx*8+288]
        vaddpd ymm2, ymm2, [rdi+rdx*8+320]
        vaddpd ymm3, ymm3, [rdi+rdx*8+352]
        vaddpd ymm0, ymm0, [rdi+rdx*8+384]
        vaddpd ymm1, ymm1, [rdi+rdx*8+416]
        vaddpd ymm2, ymm2, [rdi+rdx*8+448]
        vaddpd ymm3, ymm3, [rdi+rdx*8+480]
        add rdx, 64
        add rcx, -4
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
# the same, base-only addresses: 8.16, 8.45 [8.00]
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vaddpd ymm0, ymm0, [rdi+0]
        vaddpd ymm1, ymm1, [rdi+32]
        vaddpd ymm2, ymm2, [rdi+64]
        vaddpd ymm3, ymm3, [rdi+96]
        vaddpd ymm0, ymm0, [rdi+128]
        vaddpd ymm1, ymm1, [rdi+160]
        vaddpd ymm2, ymm2, [rdi+192]
        vaddpd ymm3, ymm3, [rdi+224]
        vaddpd ymm0, ymm0, [rdi+256]
        vaddpd ymm1, ymm1, [rdi+288]
        vaddpd ymm2, ymm2, [rdi+320]
        vaddpd ymm3, ymm3, [rdi+352]
        vaddpd ymm0, ymm0, [rdi+384]
        vaddpd ymm1, ymm1, [rdi+416]
        vaddpd ymm2, ymm2, [rdi+448]
        vaddpd ymm3, ymm3, [rdi+480]
        add rdi, 512
        add rcx, -4
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
# the same indexed, eight accumulators: 8.69, 8.69 [8.00]
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vaddpd ymm0, ymm0, [rdi+rdx*8+0]
        vaddpd ymm1, ymm1, [rdi+rdx*8+32]
        vaddpd ymm2, ymm2, [rdi+rdx*8+64]
        vaddpd ymm3, ymm3, [rdi+rdx*8+96]
        vaddpd ymm4, ymm4, [rdi+rdx*8+128]
        vaddpd ymm5, ymm5, [rdi+rdx*8+160]
        vaddpd ymm6, ymm6, [rdi+rdx*8+192]
        vaddpd ymm7, ymm7, [rdi+rdx*8+224]
        vaddpd ymm0, ymm0, [rdi+rdx*8+256]
        vaddpd ymm1, ymm1, [rdi+rdx*8+288]
        vaddpd ymm2, ymm2, [rdi+rdx*8+320]
        vaddpd ymm3, ymm3, [rdi+rdx*8+352]
        vaddpd ymm4, ymm4, [rdi+rdx*8+384]
        vaddpd ymm5, ymm5, [rdi+rdx*8+416]
        vaddpd ymm6, ymm6, [rdi+rdx*8+448]
        vaddpd ymm7, ymm7, [rdi+rdx*8+480]
        add rdx, 64
        add rcx, -4
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
# 16 vmovupd loads and 16 register vaddpd, four accumulators: 11.85, 11.96 [8.00]
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovupd ymm8, [rdi+rdx*8+0]
        vaddpd ymm0, ymm0, ymm8
        vmovupd ymm9, [rdi+rdx*8+32]
        vaddpd ymm1, ymm1, ymm9
        vmovupd ymm10, [rdi+rdx*8+64]
        vaddpd ymm2, ymm2, ymm10
        vmovupd ymm11, [rdi+rdx*8+96]
        vaddpd ymm3, ymm3, ymm11
        vmovupd ymm12, [rdi+rdx*8+128]
        vaddpd ymm0, ymm0, ymm12
        vmovupd ymm13, [rdi+rdx*8+160]
        vaddpd ymm1, ymm1, ymm13
        vmovupd ymm14, [rdi+rdx*8+192]
        vaddpd ymm2, ymm2, ymm14
        vmovupd ymm15, [rdi+rdx*8+224]
        vaddpd ymm3, ymm3, ymm15
        vmovupd ymm8, [rdi+rdx*8+256]
        vaddpd ymm0, ymm0, ymm8
        vmovupd ymm9, [rdi+rdx*8+288]
        vaddpd ymm1, ymm1, ymm9
        vmovupd ymm10, [rdi+rdx*8+320]
        vaddpd ymm2, ymm2, ymm10
        vmovupd ymm11, [rdi+rdx*8+352]
        vaddpd ymm3, ymm3, ymm11
        vmovupd ymm12, [rdi+rdx*8+384]
        vaddpd ymm0, ymm0, ymm12
        vmovupd ymm13, [rdi+rdx*8+416]
        vaddpd ymm1, ymm1, ymm13
        vmovupd ymm14, [rdi+rdx*8+448]
        vaddpd ymm2, ymm2, ymm14
        vmovupd ymm15, [rdi+rdx*8+480]
        vaddpd ymm3, ymm3, ymm15
        add rdx, 64
        add rcx, -4
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
# 16 register vaddpd, four accumulators (the chain: 4 x 2 cycles): 8.00, 8.00 [8.00]
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vaddpd ymm0, ymm0, ymm8
        vaddpd ymm1, ymm1, ymm9
        vaddpd ymm2, ymm2, ymm10
        vaddpd ymm3, ymm3, ymm11
        vaddpd ymm0, ymm0, ymm12
        vaddpd ymm1, ymm1, ymm13
        vaddpd ymm2, ymm2, ymm14
        vaddpd ymm3, ymm3, ymm15
        vaddpd ymm0, ymm0, ymm8
        vaddpd ymm1, ymm1, ymm9
        vaddpd ymm2, ymm2, ymm10
        vaddpd ymm3, ymm3, ymm11
        vaddpd ymm0, ymm0, ymm12
        vaddpd ymm1, ymm1, ymm13
        vaddpd ymm2, ymm2, ymm14
        vaddpd ymm3, ymm3, ymm15
        add rdx, 64
        add rcx, -4
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
# Second series (same host and day, one run): base-only addresses stepped by rdi. Pure
# 256-bit loads and 256-bit ALU operations each run near their bound alone (3.03, 2.67)
# but together (eight of each, independent) at 4.15, as the load-ops; 128-bit forms and
# GPR load-ops stay near theirs.
# 8 vpaddd ymm base: 4.15 [2.67]
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vpaddd ymm0, ymm15, [rdi+0]
        vpaddd ymm1, ymm15, [rdi+32]
        vpaddd ymm2, ymm15, [rdi+64]
        vpaddd ymm3, ymm15, [rdi+96]
        vpaddd ymm4, ymm15, [rdi+128]
        vpaddd ymm5, ymm15, [rdi+160]
        vpaddd ymm6, ymm15, [rdi+192]
        vpaddd ymm7, ymm15, [rdi+224]
        add rdi, 256
        cmp rdx, rdi
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
# 8 vpaddd xmm base: 2.97 [2.67]
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vpaddd xmm0, xmm15, [rdi+0]
        vpaddd xmm1, xmm15, [rdi+16]
        vpaddd xmm2, xmm15, [rdi+32]
        vpaddd xmm3, xmm15, [rdi+48]
        vpaddd xmm4, xmm15, [rdi+64]
        vpaddd xmm5, xmm15, [rdi+80]
        vpaddd xmm6, xmm15, [rdi+96]
        vpaddd xmm7, xmm15, [rdi+112]
        add rdi, 256
        cmp rdx, rdi
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
# 8 ymm loads + 8 vpaddd reg: 4.15 [3.00]
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovdqu ymm0, [rdi+0]
        vpaddd ymm8, ymm15, ymm14
        vmovdqu ymm1, [rdi+32]
        vpaddd ymm9, ymm15, ymm14
        vmovdqu ymm2, [rdi+64]
        vpaddd ymm10, ymm15, ymm14
        vmovdqu ymm3, [rdi+96]
        vpaddd ymm11, ymm15, ymm14
        vmovdqu ymm4, [rdi+128]
        vpaddd ymm12, ymm15, ymm14
        vmovdqu ymm5, [rdi+160]
        vpaddd ymm13, ymm15, ymm14
        vmovdqu ymm6, [rdi+192]
        vpaddd ymm14, ymm15, ymm14
        vmovdqu ymm7, [rdi+224]
        vpaddd ymm8, ymm15, ymm14
        add rdi, 256
        cmp rdx, rdi
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
# 8 ymm loads base: 3.03 [2.67]
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovdqu ymm0, [rdi+0]
        vmovdqu ymm1, [rdi+32]
        vmovdqu ymm2, [rdi+64]
        vmovdqu ymm3, [rdi+96]
        vmovdqu ymm4, [rdi+128]
        vmovdqu ymm5, [rdi+160]
        vmovdqu ymm6, [rdi+192]
        vmovdqu ymm7, [rdi+224]
        add rdi, 256
        cmp rdx, rdi
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
# 8 vaddps ymm base: 4.34 [4.00]
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vaddps ymm0, ymm15, [rdi+0]
        vaddps ymm1, ymm15, [rdi+32]
        vaddps ymm2, ymm15, [rdi+64]
        vaddps ymm3, ymm15, [rdi+96]
        vaddps ymm4, ymm15, [rdi+128]
        vaddps ymm5, ymm15, [rdi+160]
        vaddps ymm6, ymm15, [rdi+192]
        vaddps ymm7, ymm15, [rdi+224]
        add rdi, 256
        cmp rdx, rdi
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
# 8 add r64 mem base: 2.81 [2.67]
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        add r8, [rdi+0]
        add r9, [rdi+8]
        add r10, [rdi+16]
        add r11, [rdi+24]
        add r12, [rdi+32]
        add r13, [rdi+40]
        add r14, [rdi+48]
        add r15, [rdi+56]
        add rdi, 256
        cmp rdx, rdi
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
# 8 vpaddd ymm reg: 2.67 [2.67]
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vpaddd ymm0, ymm15, ymm14
        vpaddd ymm1, ymm15, ymm14
        vpaddd ymm2, ymm15, ymm14
        vpaddd ymm3, ymm15, ymm14
        vpaddd ymm4, ymm15, ymm14
        vpaddd ymm5, ymm15, ymm14
        vpaddd ymm6, ymm15, ymm14
        vpaddd ymm7, ymm15, ymm14
        add rdi, 256
        cmp rdx, rdi
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
# 8 xmm loads base: 2.90 [2.67]
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovdqu xmm0, [rdi+0]
        vmovdqu xmm1, [rdi+16]
        vmovdqu xmm2, [rdi+32]
        vmovdqu xmm3, [rdi+48]
        vmovdqu xmm4, [rdi+64]
        vmovdqu xmm5, [rdi+80]
        vmovdqu xmm6, [rdi+96]
        vmovdqu xmm7, [rdi+112]
        add rdi, 256
        cmp rdx, rdi
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
# 8 gpr loads base: 2.79 [2.67]
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        mov r8, [rdi+0]
        mov r9, [rdi+8]
        mov r10, [rdi+16]
        mov r11, [rdi+24]
        mov r12, [rdi+32]
        mov r13, [rdi+40]
        mov r14, [rdi+48]
        mov r15, [rdi+56]
        add rdi, 256
        cmp rdx, rdi
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
# 8 ymm loads + 8 vpaddd dep: 4.60 [3.00]
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovdqu ymm0, [rdi+0]
        vpaddd ymm8, ymm15, ymm0
        vmovdqu ymm1, [rdi+32]
        vpaddd ymm9, ymm15, ymm1
        vmovdqu ymm2, [rdi+64]
        vpaddd ymm10, ymm15, ymm2
        vmovdqu ymm3, [rdi+96]
        vpaddd ymm11, ymm15, ymm3
        vmovdqu ymm4, [rdi+128]
        vpaddd ymm12, ymm15, ymm4
        vmovdqu ymm5, [rdi+160]
        vpaddd ymm13, ymm15, ymm5
        vmovdqu ymm6, [rdi+192]
        vpaddd ymm14, ymm15, ymm6
        vmovdqu ymm7, [rdi+224]
        vpaddd ymm8, ymm15, ymm7
        add rdi, 256
        cmp rdx, rdi
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
