// Error fixture: a valid object for another architecture (AArch64).
        .text
        .globl  f
f:
        add     x0, x0, x1
        ret
