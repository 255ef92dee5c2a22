# Zen 4: a spin-wait loop. `suaca profile --processes 3` on Zen 4 (family 25 model 17,
# 2026-11-26) measured 89.97 cycles per iteration (90.02 a second time); `pause` measures
# TP_unrolled 90.02 with `suaca measure` (data/measured/README.md, "fences and pause"), and
# the serializing rule (docs/model.md "Serializing instructions") holds each `pause` for it:
# predicted 90.00 (`tests/model/measured_zen4_ports.rs`). Before `pause` was in the data the
# analyzer warned "no data for `pause`" and predicted 1.00.
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
