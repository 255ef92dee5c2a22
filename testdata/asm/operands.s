# Every operand kind the decoder must describe, one region. Not meant to run.
# Memory and call targets are numeric local labels inside .text (`.L` names are not
# temporary in Mach-O), so no relocation is needed and the region bytes are identical in
# ELF, COFF and Mach-O.
        .intel_syntax noprefix
        .text
        .globl  operands
operands:
        .byte   0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90  # IACA start
        # GPR reads/writes at every width, high-8 and partial writes
        mov     al, cl
        mov     ah, bh
        mov     bx, dx
        mov     esi, edi
        mov     r8, r9
        add     al, 1
        # flags: written, then read (adc, cmovcc, setcc)
        cmp     rdx, rbx
        adc     rax, rcx
        cmovz   r10, r11
        setb    cl
        # memory: base+index*scale+disp, RIP-relative, store, load-op, lea
        mov     rax, qword ptr [rbx + 4*rcx + 0x20]
        mov     r12, qword ptr [rip + 3f]
        mov     qword ptr [rsp + 8], rdx
        add     rdi, qword ptr [rsi + 8*rdx - 8]
        lea     r13, [rax + 2*rbx + 3]
        # implicit operands: push/pop (rsp + memory), div (rdx:rax)
        push    rbx
        pop     rbx
        div     rcx
        # idioms: zero (GPR, SSE, AVX) and all-ones
        xor     eax, eax
        pxor    xmm0, xmm0
        vpxor   xmm1, xmm1, xmm1
        pcmpeqd xmm2, xmm2
        # AVX and AVX-512 with an opmask register
        vaddps  ymm3, ymm4, ymm5
        vaddps  zmm6 {k1}, zmm7, zmm8
        # string instruction
        rep movsb
        # control flow inside the region
        test    rax, rax
        jz      1f
        inc     rax
1:
        call    2f
        .byte   0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90  # IACA end
        ret
2:      # helper
        ret
        .p2align 3
3:      # constant
        .quad   42
