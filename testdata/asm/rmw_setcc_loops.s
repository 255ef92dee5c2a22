# Zen 4 loops the model gets wrong, no rule found (leads; scripts/README.md "Loop benchmark").
# The read-modify-write loops close with `cmp rdi, rax; jne`, the count_byte ones with `cmp
# rdx, rdi; jne` but where a region says otherwise. `suaca profile --processes 3` (5 for
# the first eight) on Zen 4 (family 25 model 17, 2026-11-26) measured the cycles per
# iteration noted before each region; suaca predicts 1.00 for all but the last two (1.25
# and 1.50). A read-modify-write in a 3-macro-op loop (gcc -O2 `a[i] += x`) runs at ~1.2
# whatever the operation, width or stride; a fourth macro-op that uses an ALU brings it to
# 1.00, a zero idiom to ~1.09; with four or six ALU operations beside it, a quarter cycle
# more than the ALUs need. A `setcc` into the low byte of a register that is then read
# whole, with the flags from a compare with memory, takes 2 cycles (count_byte, gcc -O2), as
# with `cmovz` in its place or `lea` for the sum; with the compare on registers 1.22 (also
# when the loop closes on another register pair: a reading of 1.59 for it was noise), with
# rcx not read 1.63, and with the accumulating `add` moved before the pointer's 1.50 (an
# order effect, as loop_order.s).
        .intel_syntax noprefix
        .text
        .p2align 6
# 1.21: add dword ptr [rdi], ecx; add rdi, 4 (a[i] += x)
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        add dword ptr [rdi], ecx
        add rdi, 4
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.00: the same and one more add
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        add dword ptr [rdi], ecx
        add r8, 1
        add rdi, 4
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.09: the same with a zero idiom instead
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        add dword ptr [rdi], ecx
        add rdi, 4
        xor r8d, r8d
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.00: load and store instead of the read-modify-write
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        mov edx, dword ptr [rdi]
        mov dword ptr [rdi], ecx
        add rdi, 4
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 2.00: count_byte: setz cl after a compare with memory, rcx read whole (here the loop closes with cmp rdx, rdi)
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        xor ecx, ecx
        cmp byte ptr [rdi], sil
        setz cl
        add rdi, 1
        add rax, rcx
        cmp rdx, rdi
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.22: the same with the compare on registers
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        xor ecx, ecx
        cmp r9b, sil
        setz cl
        add rdi, 1
        add rax, rcx
        cmp rdx, rdi
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.22: the same with test on a register
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        xor ecx, ecx
        test r9d, r9d
        setz cl
        add rdi, 1
        add rax, rcx
        cmp rdx, rdi
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.63: the memory compare, rcx not read
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        xor ecx, ecx
        cmp byte ptr [rdi], sil
        setz cl
        add rdi, 1
        add rax, r10
        cmp rdx, rdi
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 2.00: count_byte with cmovz instead of setz
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        xor ecx, ecx
        cmp byte ptr [rdi], sil
        cmovz ecx, r9d
        add rdi, 1
        add rax, rcx
        cmp rdx, rdi
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.50: count_byte with add rax, rcx before add rdi, 1
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        xor ecx, ecx
        cmp byte ptr [rdi], sil
        setz cl
        add rax, rcx
        add rdi, 1
        cmp rdx, rdi
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 2.00: count_byte with lea rax, [rax+rcx] for the add
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        xor ecx, ecx
        cmp byte ptr [rdi], sil
        setz cl
        add rdi, 1
        lea rax, [rax+rcx]
        cmp rdx, rdi
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.22: the register compare with the loop closing on cmp rdi, rax (rdx the sum)
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        xor ecx, ecx
        cmp r9b, sil
        setz cl
        add rdi, 1
        add rdx, rcx
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.57: a read-modify-write and four more ALU operations
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        add dword ptr [rdi], ecx
        add r8, 1
        add r9, 1
        add r10, 1
        add rdi, 4
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 2.00: a load, six ALU operations and a store
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        mov edx, dword ptr [rdi]
        add r8, 1
        add r9, 1
        add r10, 1
        add r11, 1
        add r12, 1
        mov dword ptr [rdi], ecx
        add rdi, 4
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
        ret
