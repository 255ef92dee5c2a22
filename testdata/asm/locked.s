# Locked read-modify-writes on Zen 4 (issue #16: the embedded ZEN4 data has no locked forms; the
# analyzer warns and uses the plain form). Modelled in part: locked accesses are not renamed
# and forward at the arch's latency (region 0 predicted 6.00); locked operations to
# different addresses still overlap in the model (region 1 predicted 6.00).
# `suaca profile --processes 5` on Zen 4 (family 25 model 17, 2026-11-26) measured, per copy:
# region 0 `lock add dword ptr [rdi], 1` 6.2-7.4 (the processes disagree, 4.9-8.2);
# region 1 two locked adds to two addresses 15.0 (stable: locked operations do not overlap,
# whatever their address); region 2 the plain add 1.00; region 3 one locked add and three
# independent adds 6.5 (4.9-6.9); region 4 one locked add and an independent load 6.2
# (5.8-6.8); region 5 `xchg [rdi], rax` (locked by itself; in the data) 7.50 (stable).
        .intel_syntax noprefix
.text
.globl f
.p2align 6
f:
.byte 0xBB,0x6F,0,0,0,0x64,0x67,0x90
lock add dword ptr [rdi], 1
.byte 0xBB,0xDE,0,0,0,0x64,0x67,0x90
.p2align 6
.byte 0xBB,0x6F,0,0,0,0x64,0x67,0x90
lock add dword ptr [rdi], 1
lock add dword ptr [rsi], 1
.byte 0xBB,0xDE,0,0,0,0x64,0x67,0x90
.p2align 6
.byte 0xBB,0x6F,0,0,0,0x64,0x67,0x90
add dword ptr [rdi], 1
.byte 0xBB,0xDE,0,0,0,0x64,0x67,0x90
.p2align 6
.byte 0xBB,0x6F,0,0,0,0x64,0x67,0x90
lock add dword ptr [rdi], 1
add r8, 1
add r9, 1
add r10, 1
.byte 0xBB,0xDE,0,0,0,0x64,0x67,0x90
.p2align 6
.byte 0xBB,0x6F,0,0,0,0x64,0x67,0x90
lock add dword ptr [rdi], 1
mov rax, [rsi]
.byte 0xBB,0xDE,0,0,0,0x64,0x67,0x90
.p2align 6
.byte 0xBB,0x6F,0,0,0,0x64,0x67,0x90
xchg [rdi], rax
.byte 0xBB,0xDE,0,0,0,0x64,0x67,0x90
ret
