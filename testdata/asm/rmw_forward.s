# Read-modify-write and store→load chains through one location on the Intel host (Redwood
# Cove, taken as MTL-P: data/arch/MTL-P.toml `memory.renames_indexed`,
# `memory.loop_same_name_aliases`, `memory.store_forward_latency`). `suaca profile --processes
# 3 --arch MTL-P` on the Intel host (CPUID family 6 model 167 reported, 2026-11-28), three
# runs, cycles per iteration noted before each loop: the first two before the profiler put an
# lfence between a loop's runs, the last after (spreads up to 16% on the forwarded chains).
# Through a base register alone the value is renamed (1.00), also after `mov rdi, r10` rewrote
# the base (region 7: MTL-P predicts 6.00 there, not modelled); with an index register,
# unchanged or copied, it goes through store forwarding, 6.2-7.4 cycles an iteration (MTL-P:
# 6.00 for a read-modify-write, 7.00 for a load, add and store). The histogram loops read the
# harness's constant data (every 8-byte word 0x3F800000): the masked one hits one bin every
# iteration (7.2-7.3), the byte one the same bin six times in eight (4.9-5.4; the model, which
# does not know the data, chains all: 6.00).
        .intel_syntax noprefix
        .text
        .globl f
        .p2align 6
f:
# 1.00: add dword ptr [rdi], 1 (renamed)
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        add dword ptr [rdi], 1
        add rsi, 4
        cmp rsi, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 7.32, 7.16, 7.17: a histogram over masked dwords (one bin)
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        mov eax, dword ptr [rsi]
        add rsi, 4
        and eax, 0x3ff
        add dword ptr [rdi+rax*4], 1
        cmp rdx, rsi
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 6.68, 6.51, 7.38: add dword ptr [rdi+rax*4], 1 with rax copied from r9 every iteration
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        mov eax, r9d
        add dword ptr [rdi+rax*4], 1
        add rsi, 4
        cmp rsi, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 6.93, 7.09, 7.35: load, add, store through [rdi+rax*4], rax copied every iteration
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        mov eax, r9d
        mov ecx, dword ptr [rdi+rax*4]
        add ecx, 1
        mov dword ptr [rdi+rax*4], ecx
        add rsi, 4
        cmp rsi, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.00: load, add, store through [rdi] (renamed)
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        mov ecx, dword ptr [rdi]
        add ecx, 1
        mov dword ptr [rdi], ecx
        add rsi, 4
        cmp rsi, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 4.91, 4.99, 5.38: a histogram over bytes (one bin six times in eight)
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        movzx eax, byte ptr [rsi]
        add rsi, 1
        add dword ptr [rdi+rax*4], 1
        cmp rdx, rsi
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 6.74, 6.19, 7.21: add dword ptr [rdi+r9*4], 1 with r9 unchanged
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        add dword ptr [rdi+r9*4], 1
        add rsi, 4
        cmp rsi, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
        .p2align 6
# 1.00: add dword ptr [rdi], 1 after mov rdi, r10 (renamed through the copy)
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        mov rdi, r10
        add dword ptr [rdi], 1
        add rsi, 4
        cmp rsi, rdx
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
