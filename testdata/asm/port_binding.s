# Port assignment at issue on the Intel host (Redwood Cove, taken as MTL-P:
# data/arch/MTL-P.toml `scheduler.port_assignment`). `suaca profile --processes 3 --arch
# MTL-P` on the Intel host (CPUID family 6 model 167 reported, 2026-11-28, two runs where two
# figures are given: before and after the profiler's lfence between a loop's runs) measured
# the cycles per iteration noted before each loop. clang's max_i32 loop (two chains of two
# 1-cycle `pmaxsd` on p0/p1, four loads) reads 3.1 where both its chains and its ports allow
# 2.00 (ports chosen at dispatch predict 2.00; bound at issue, MTL-P predicts 2.92, 2.00,
# 2.83); one chain alone reads 2.00, and so do the single-chain variants after it (predicted
# 2.00; the last, whose `pmaxsd` chains nothing, 0.67).
        .intel_syntax noprefix
        .text
        .globl f
        .p2align 6
f:
# 3.12, 3.09: clang max_i32 as compiled
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        movdqu xmm2, xmmword ptr [rdi+rdx*4]
        pmaxsd xmm2, xmm0
        movdqu xmm3, xmmword ptr [rdi+rdx*4+0x10]
        pmaxsd xmm3, xmm1
        movdqu xmm0, xmmword ptr [rdi+rdx*4+0x20]
        pmaxsd xmm0, xmm2
        movdqu xmm1, xmmword ptr [rdi+rdx*4+0x30]
        pmaxsd xmm1, xmm3
        add rdx, 16
        add rax, -2
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 2.00: the same, one chain
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        movdqu xmm2, xmmword ptr [rdi+rdx*4]
        pmaxsd xmm2, xmm0
        movdqu xmm0, xmmword ptr [rdi+rdx*4+0x20]
        pmaxsd xmm0, xmm2
        add rdx, 16
        add rax, -2
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 3.10, 3.12: two chains, cmp/jne counter
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        movdqu xmm2, xmmword ptr [rdi+rdx*4]
        pmaxsd xmm2, xmm0
        movdqu xmm3, xmmword ptr [rdi+rdx*4+0x10]
        pmaxsd xmm3, xmm1
        movdqu xmm0, xmmword ptr [rdi+rdx*4+0x20]
        pmaxsd xmm0, xmm2
        movdqu xmm1, xmmword ptr [rdi+rdx*4+0x30]
        pmaxsd xmm1, xmm3
        add rdx, 16
        cmp rdx, rsi
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 2.00: clang max_i32 shape, two accumulators
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        movdqu xmm2, xmmword ptr [rsi+rax]
        pmaxsd xmm2, xmm0
        movdqu xmm0, xmmword ptr [rsi+rax+16]
        pmaxsd xmm0, xmm2
        add rax, 32
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 2.00: the same from registers (movdqa)
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        movdqa xmm2, xmm5
        pmaxsd xmm2, xmm0
        movdqa xmm0, xmm6
        pmaxsd xmm0, xmm2
        add rax, 32
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 2.00: AVX load-ops
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vpmaxsd xmm2, xmm0, xmmword ptr [rsi+rax]
        vpmaxsd xmm0, xmm2, xmmword ptr [rsi+rax+16]
        add rax, 32
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 2.00: AVX registers
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vpmaxsd xmm2, xmm0, xmm5
        vpmaxsd xmm0, xmm2, xmm6
        add rax, 32
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 2.00: load then pmaxsd into the chain register
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        movdqu xmm2, xmmword ptr [rsi+rax]
        pmaxsd xmm0, xmm2
        movdqu xmm3, xmmword ptr [rsi+rax+16]
        pmaxsd xmm0, xmm3
        add rax, 32
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 2.00: paddd in clang's shape
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        movdqu xmm2, xmmword ptr [rsi+rax]
        paddd xmm2, xmm0
        movdqu xmm0, xmmword ptr [rsi+rax+16]
        paddd xmm0, xmm2
        add rax, 32
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 0.67: movdqa copy then pmaxsd (no load)
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        movdqa xmm2, xmm0
        pmaxsd xmm2, xmm5
        add rax, 32
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
