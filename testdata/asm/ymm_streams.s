# 256-bit streams on the Intel host (Redwood Cove, taken as MTL-P; a lead, mostly not
# modelled: scripts/README.md "The Intel host"). `suaca profile --processes 3 --arch MTL-P` on
# the Intel host (CPUID family 6 model 167 reported, 2026-11-28) measured the cycles per
# iteration noted before each loop twice: before and after the profiler put an lfence between
# a loop's runs (most of these loops run N = 128, lowered to keep their arrays in L1; the
# second figure is the one to trust). gcc -O3 -march=x86-64-v3's saxpy (two indexed ymm load-
# ops, an indexed store) reads 1.45 where MTL-P predicts 1.33 (its split load-ops:
# testdata/asm/unlaminated_loops.s), base-only 1.35 (predicted 1.22), with separate loads 1.35
# (1.17), with xmm 1.33; without its store 1.10 (1.00). A loop of one indexed ymm load-op
# reads 1.02 (predicted 1.00, the split), base-only 0.71 (0.67), xmm 1.00, a plain indexed ymm
# load 0.54 (0.50). Stores go faster than predicted: one ymm store an iteration stepping 32
# bytes 0.53 (two a cycle into one line; predicted 1.00), a ymm load and store 0.70 (1.00).
# The last 17 loops: ymm loads sustain about 2.6 a cycle (four aligned from one or four arrays
# 1.52-1.56, predicted 1.33 at three); two misaligned ymm loads an iteration 1.00-1.01 whether
# one, half or both split a line (aligned 0.86), one that splits every iteration 0.53; four
# overlapping misaligned loads of one array (a stencil's shape) 2.36 against 1.34 predicted
# (gcc -O3 -march=x86-64-v3's stencil1d5_f32: 4.10 measured, 2.57 predicted). Not modelled: no
# single rate fits these.
        .intel_syntax noprefix
        .text
        .globl f
        .p2align 6
f:
# 1.45, 1.45: gcc saxpy
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmulps ymm1, ymm2, ymmword ptr [rsi+rax]
        vaddps ymm1, ymm1, ymmword ptr [rcx+rax]
        vmovups ymmword ptr [rcx+rax], ymm1
        add rax, 32
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.44, 1.34: base-only
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmulps ymm1, ymm2, ymmword ptr [rsi]
        vaddps ymm1, ymm1, ymmword ptr [rcx]
        vmovups ymmword ptr [rcx], ymm1
        add rsi, 32
        add rcx, 32
        cmp rdi, rcx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.38, 1.35: separate loads
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovups ymm3, ymmword ptr [rsi+rax]
        vmulps ymm1, ymm2, ymm3
        vmovups ymm4, ymmword ptr [rcx+rax]
        vaddps ymm1, ymm1, ymm4
        vmovups ymmword ptr [rcx+rax], ymm1
        add rax, 32
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.45, 1.45: store to another array
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmulps ymm1, ymm2, ymmword ptr [rsi+rax]
        vaddps ymm1, ymm1, ymmword ptr [rcx+rax]
        vmovups ymmword ptr [rdx+rax], ymm1
        add rax, 32
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.22, 1.10: no store
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmulps ymm1, ymm2, ymmword ptr [rsi+rax]
        vaddps ymm1, ymm1, ymmword ptr [rcx+rax]
        add rax, 32
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.33, 1.33: xmm saxpy
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmulps xmm1, xmm2, xmmword ptr [rsi+rax]
        vaddps xmm1, xmm1, xmmword ptr [rcx+rax]
        vmovups xmmword ptr [rcx+rax], xmm1
        add rax, 16
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 0.53, 0.53: store only ymm
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovups ymmword ptr [rcx+rax], ymm1
        add rax, 32
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 0.70, 0.70: one ymm load, one ymm store
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovups ymm3, ymmword ptr [rsi+rax]
        vmovups ymmword ptr [rcx+rax], ymm1
        add rax, 32
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.00, 1.01: two ymm loads, one ymm store
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovups ymm3, ymmword ptr [rsi+rax]
        vmovups ymm4, ymmword ptr [rdx+rax]
        vmovups ymmword ptr [rcx+rax], ymm1
        add rax, 32
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
# 1.00, 1.01: vaddps ymm indexed load-op
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vaddps ymm1, ymm2, ymmword ptr [rsi+rax]
        add rax, 32
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 0.70, 0.71: vaddps ymm base-only load-op
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vaddps ymm1, ymm2, ymmword ptr [rsi]
        add rsi, 32
        add rax, 32
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 0.92, 1.00: vaddps xmm indexed load-op
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vaddps xmm1, xmm2, xmmword ptr [rsi+rax]
        add rax, 16
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.01, 1.02: vpaddd ymm indexed load-op
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vpaddd ymm1, ymm2, ymmword ptr [rsi+rax]
        add rax, 32
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 0.67, 0.67: vmovups + vaddps ymm
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovups ymm3, ymmword ptr [rsi+rax]
        vaddps ymm1, ymm2, ymm3
        add rax, 32
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 0.57, 0.54: vmovups ymm only
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovups ymm3, ymmword ptr [rsi+rax]
        add rax, 32
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 0.67, 0.67: vaddps ymm fixed address
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vaddps ymm1, ymm2, ymmword ptr [rsi]
        add rax, 32
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.10, 1.07: two vaddps ymm load-ops step 64
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vaddps ymm1, ymm2, ymmword ptr [rsi+rax]
        vaddps ymm3, ymm2, ymmword ptr [rsi+rax+32]
        add rax, 64
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 0.49, 0.53: vmovups ymm only step 64
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovups ymm3, ymmword ptr [rsi+rax]
        add rax, 64
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.06, 1.01: vaddps ymm load-op step 64
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vaddps ymm1, ymm2, ymmword ptr [rsi+rax]
        add rax, 64
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 0.57, 0.54: aligned ymm load
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovups ymm3, ymmword ptr [rsi+rax]
        add rax, 32
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 0.57, 0.54: ymm load at +16 (every other splits)
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovups ymm3, ymmword ptr [rsi+rax+16]
        add rax, 32
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 0.85, 0.81: two ymm loads at +16 and +48, step 64 (one splits)
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovups ymm3, ymmword ptr [rsi+rax+16]
        vmovups ymm4, ymmword ptr [rsi+rax+48]
        add rax, 64
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 2.35, 2.36: four ymm loads at +16 +12 +4 +8 (two split)
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovups ymm3, ymmword ptr [rsi+rax+16]
        vmovups ymm4, ymmword ptr [rsi+rax+12]
        vmovups ymm5, ymmword ptr [rsi+rax+4]
        vmovups ymm6, ymmword ptr [rsi+rax+8]
        add rax, 32
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.51, 1.52: four aligned ymm loads from four arrays
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovups ymm3, ymmword ptr [rsi+rax]
        vmovups ymm4, ymmword ptr [rcx+rax]
        vmovups ymm5, ymmword ptr [rdx+rax]
        vmovups ymm6, ymmword ptr [r8+rax]
        add rax, 32
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.00, 1.01: ymm load-op at +16
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vaddps ymm1, ymm2, ymmword ptr [rsi+rax+16]
        add rax, 32
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 0.55, 0.52: xmm load at +8, step 16 (one in four splits)
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovups xmm3, xmmword ptr [rsi+rax+8]
        add rax, 16
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 0.50, 0.53: ymm load at +16 step 64 (every one splits)
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovups ymm3, ymmword ptr [rsi+rax+48]
        add rax, 64
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.54, 1.56: four aligned ymm loads, one array, step 128
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovups ymm3, ymmword ptr [rsi+rax]
        vmovups ymm4, ymmword ptr [rsi+rax+32]
        vmovups ymm5, ymmword ptr [rsi+rax+64]
        vmovups ymm6, ymmword ptr [rsi+rax+96]
        add rax, 128
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 0.99, 1.00: two ymm loads +4 +8 step 32
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovups ymm3, ymmword ptr [rsi+rax+4]
        vmovups ymm4, ymmword ptr [rsi+rax+8]
        add rax, 32
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 0.99, 1.00: two ymm loads +0 +8 step 32
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovups ymm3, ymmword ptr [rsi+rax]
        vmovups ymm4, ymmword ptr [rsi+rax+8]
        add rax, 32
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 0.85, 0.86: two ymm loads +0 +32 step 32 (same data twice)
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovups ymm3, ymmword ptr [rsi+rax]
        vmovups ymm4, ymmword ptr [rsi+rax+32]
        add rax, 32
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 0.85, 0.86: two xmm loads +4 +8 step 16
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovups xmm3, xmmword ptr [rsi+rax+4]
        vmovups xmm4, xmmword ptr [rsi+rax+8]
        add rax, 16
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.41, 1.45: four 8-byte loads +0 +4 +8 +12 step 32
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        mov r8, qword ptr [rsi+rax]
        mov r9, qword ptr [rsi+rax+4]
        mov r10, qword ptr [rsi+rax+8]
        mov r11, qword ptr [rsi+rax+12]
        add rax, 32
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 0.99, 1.00: two ymm loads +8 +16 step 32 (never split together?)
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovups ymm3, ymmword ptr [rsi+rax+8]
        vmovups ymm4, ymmword ptr [rsi+rax+16]
        add rax, 32
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.01, 1.01: two ymm loads +40 +48 step 64 (both split every time)
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovups ymm3, ymmword ptr [rsi+rax+40]
        vmovups ymm4, ymmword ptr [rsi+rax+48]
        add rax, 64
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.01, 1.01: two ymm loads +40 +104 step 128 (two lines, both split)
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vmovups ymm3, ymmword ptr [rsi+rax+40]
        vmovups ymm4, ymmword ptr [rsi+rax+104]
        add rax, 128
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
