# Zen 4: each µop of the measured port counts is a cycle of its port; an instruction's µops do
# not share a port in one cycle (`scheduler.uops_share_ports = false`). `suaca profile
# --processes 3` on Zen 4 (family 25 model 17, 2026-11-26) measured the cycles per copy or
# iteration noted before each region. The data gives a 512-bit FMA and `vcmppd k, zmm` two
# µops on FP0/FP1 (measured throughput 1.00) and a 256-bit FMA or multiply one: every region
# needs a cycle of FP0 or FP1 per µop. Sharing let a 512-bit operation put both µops on one
# pipe beside a 256-bit one (4.00 and 2.00 for the first two).
        .intel_syntax noprefix
        .text
        .p2align 6
# 6.00: four 512-bit and four 256-bit FMAs, independent
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        vfmadd231pd zmm1, zmm9, zmm10
        vfmadd231pd ymm5, ymm9, ymm10
        vfmadd231pd zmm2, zmm9, zmm10
        vfmadd231pd ymm6, ymm9, ymm10
        vfmadd231pd zmm3, zmm9, zmm10
        vfmadd231pd ymm7, ymm9, ymm10
        vfmadd231pd zmm4, zmm9, zmm10
        vfmadd231pd ymm8, ymm9, ymm10
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 3.00: two 512-bit compares into mask registers and two 256-bit multiplies
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        vcmpltpd k1, zmm0, zmm1
        vmulpd ymm5, ymm9, ymm10
        vcmpltpd k2, zmm0, zmm1
        vmulpd ymm6, ymm9, ymm10
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 4.00: a loop of three 512-bit and two 256-bit FMAs (8 µops on two pipes); the model says
# 4.33: an FMA that got one pipe waits for the other while a younger one takes it
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        vfmadd231pd zmm1, zmm9, zmm10
        vfmadd231pd ymm5, ymm9, ymm10
        vfmadd231pd zmm2, zmm9, zmm10
        vfmadd231pd ymm6, ymm9, ymm10
        vfmadd231pd zmm3, zmm9, zmm10
        add rax, 64
        cmp rax, rdi
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 5.02 (a lead, the model says 4.00): four 512-bit FMAs (FP0/FP1) and four 512-bit integer
# adds (any of FP0-FP3): 16 µops on four pipes, yet a cycle more
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        vfmadd231pd zmm1, zmm9, zmm10
        vpaddq zmm11, zmm0, zmm9
        vfmadd231pd zmm2, zmm9, zmm10
        vpaddq zmm12, zmm0, zmm9
        vfmadd231pd zmm3, zmm9, zmm10
        vpaddq zmm13, zmm0, zmm9
        vfmadd231pd zmm4, zmm9, zmm10
        vpaddq zmm14, zmm0, zmm9
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
