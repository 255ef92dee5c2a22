# Zen 4: a spin-wait loop (lead; issue #16: the embedded ZEN4 data has no `pause`, so the
# analyzer warns "no data for `pause`" and predicts 1.00). `suaca profile --processes 3` on
# Zen 4 (family 25 model 17, 2026-11-26) measured 89.97 cycles per iteration; with data for
# `pause` the serializing rule (docs/model.md "Serializing instructions") would hold each
# `pause` for its measured throughput.
        .intel_syntax noprefix
        .text
# 89.97: pause; add rax, 1; cmp rdi, rax; jne
        .byte 0xBB, 0x6F, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
1:
        pause
        add rax, 1
        cmp rdi, rax
        jne 1b
        .byte 0xBB, 0xDE, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90
