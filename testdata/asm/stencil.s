# SUACA thesis §4.2 (from the OSACA thesis): inner loop of a 2D 5-point stencil.
# The region is exactly the 8 instructions of the thesis listing. As with iacaMarks.h
# (IACA_START inside the loop body, IACA_END after the loop), the loop's branch sits after
# the end marker, so it is not part of the region.
        .intel_syntax noprefix
        .text
        .globl  stencil
stencil:
1:      # loop
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90  # IACA start
        vmovsd  xmm2, qword ptr [r14 + 8*r15]
        vaddsd  xmm3, xmm2, qword ptr [r14 + 8*r15 + 0x10]
        vaddsd  xmm4, xmm3, qword ptr [rax + 8*r15 + 0x8]
        vaddsd  xmm5, xmm4, qword ptr [rdx + 8*r15 + 0x8]
        vmulsd  xmm6, xmm1, xmm5
        vmovsd  qword ptr [r12 + 8*r15 + 0x8], xmm6
        inc     r15
        cmp     r15, r13
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90  # IACA end
        jb      1b
        ret
