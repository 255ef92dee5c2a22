	.file	"unmarked.c"
	.text
.Ltext0:
	.file 0 "." "c/unmarked.c"
	.p2align 4
	.globl	sum3
	.type	sum3, @function
sum3:
.LVL0:
.LFB0:
	.file 1 "c/unmarked.c"
	.loc 1 3 1 view -0
	.cfi_startproc
	.loc 1 4 5 view .LVU1
	.loc 1 5 5 view .LVU2
.LBB2:
	.loc 1 5 10 view .LVU3
	.loc 1 5 24 view .LVU4
	testq	%rsi, %rsi
	jle	.L4
	leaq	(%rdi,%rsi,8), %rcx
.LBE2:
	.loc 1 4 10 is_stmt 0 view .LVU5
	xorl	%edx, %edx
.LVL1:
	.p2align 4,,10
	.p2align 3
.L3:
.LBB3:
	.loc 1 6 9 is_stmt 1 discriminator 3 view .LVU6
	.loc 1 6 19 is_stmt 0 discriminator 3 view .LVU7
	movq	(%rdi), %rax
	.loc 1 5 24 discriminator 3 view .LVU8
	addq	$8, %rdi
	.loc 1 6 19 discriminator 3 view .LVU9
	leaq	(%rax,%rax,2), %rax
	.loc 1 6 11 discriminator 3 view .LVU10
	addq	%rax, %rdx
.LVL2:
	.loc 1 5 30 is_stmt 1 discriminator 3 view .LVU11
	.loc 1 5 24 discriminator 3 view .LVU12
	cmpq	%rcx, %rdi
	jne	.L3
.LBE3:
	.loc 1 8 1 is_stmt 0 view .LVU13
	movq	%rdx, %rax
	ret
.LVL3:
	.p2align 4,,10
	.p2align 3
.L4:
	.loc 1 4 10 view .LVU14
	xorl	%edx, %edx
	.loc 1 7 5 is_stmt 1 view .LVU15
	.loc 1 8 1 is_stmt 0 view .LVU16
	movq	%rdx, %rax
	ret
	.cfi_endproc
.LFE0:
	.size	sum3, .-sum3
	.p2align 4
	.globl	until_stop
	.type	until_stop, @function
until_stop:
.LVL4:
.LFB1:
	.loc 1 11 1 is_stmt 1 view -0
	.cfi_startproc
	.loc 1 12 5 view .LVU18
	.loc 1 13 5 view .LVU19
.LBB4:
	.loc 1 13 10 view .LVU20
	.loc 1 13 24 view .LVU21
	testq	%rsi, %rsi
	jle	.L10
	.loc 1 13 15 is_stmt 0 view .LVU22
	xorl	%eax, %eax
.LBE4:
	.loc 1 12 10 view .LVU23
	xorl	%r8d, %r8d
	jmp	.L9
.LVL5:
	.p2align 4,,10
	.p2align 3
.L12:
.LBB5:
	.loc 1 16 9 is_stmt 1 discriminator 2 view .LVU24
	.loc 1 13 30 is_stmt 0 discriminator 2 view .LVU25
	addq	$1, %rax
.LVL6:
	.loc 1 16 11 discriminator 2 view .LVU26
	addq	%rcx, %r8
.LVL7:
	.loc 1 13 30 is_stmt 1 discriminator 2 view .LVU27
	.loc 1 13 24 discriminator 2 view .LVU28
	cmpq	%rax, %rsi
	je	.L7
.LVL8:
.L9:
	.loc 1 14 9 view .LVU29
	.loc 1 14 14 is_stmt 0 view .LVU30
	movq	(%rdi,%rax,8), %rcx
	.loc 1 14 12 view .LVU31
	cmpq	%rdx, %rcx
	jne	.L12
.LVL9:
.L7:
	.loc 1 14 12 view .LVU32
.LBE5:
	.loc 1 19 1 view .LVU33
	movq	%r8, %rax
	ret
.LVL10:
.L10:
	.loc 1 12 10 view .LVU34
	xorl	%r8d, %r8d
	.loc 1 18 5 is_stmt 1 view .LVU35
	.loc 1 18 12 is_stmt 0 view .LVU36
	jmp	.L7
	.cfi_endproc
.LFE1:
	.size	until_stop, .-until_stop
	.p2align 4
	.globl	clamp
	.type	clamp, @function
clamp:
.LVL11:
.LFB2:
	.loc 1 22 1 is_stmt 1 view -0
	.cfi_startproc
	.loc 1 23 5 view .LVU38
.LBB6:
	.loc 1 23 10 view .LVU39
	.loc 1 23 24 view .LVU40
	testq	%rsi, %rsi
	jle	.L13
	leaq	(%rdi,%rsi,8), %rsi
.LVL12:
	.loc 1 27 18 is_stmt 0 view .LVU41
	movl	$100, %ecx
.LVL13:
	.p2align 4,,10
	.p2align 3
.L16:
	.loc 1 24 9 is_stmt 1 view .LVU42
	.loc 1 24 14 is_stmt 0 view .LVU43
	movq	(%rdi), %rdx
	.loc 1 27 18 view .LVU44
	cmpq	$101, %rdx
	leaq	7(%rdx), %rax
	cmovge	%rcx, %rax
	.loc 1 23 24 view .LVU45
	addq	$8, %rdi
	movq	%rax, -8(%rdi)
	.loc 1 23 30 is_stmt 1 view .LVU46
	.loc 1 23 24 view .LVU47
	cmpq	%rsi, %rdi
	jne	.L16
.L13:
.LBE6:
	.loc 1 29 1 is_stmt 0 view .LVU48
	ret
	.cfi_endproc
.LFE2:
	.size	clamp, .-clamp
	.p2align 4
	.globl	twice
	.type	twice, @function
twice:
.LVL14:
.LFB3:
	.loc 1 32 1 is_stmt 1 view -0
	.cfi_startproc
	.loc 1 33 5 view .LVU50
	.loc 1 33 14 is_stmt 0 view .LVU51
	leaq	(%rdi,%rdi), %rax
	.loc 1 34 1 view .LVU52
	ret
	.cfi_endproc
.LFE3:
	.size	twice, .-twice
.Letext0:
	.section	.debug_info,"",@progbits
.Ldebug_info0:
	.long	0x1a1
	.value	0x5
	.byte	0x1
	.byte	0x8
	.long	.Ldebug_abbrev0
	.uleb128 0x7
	.long	.LASF7
	.byte	0x1d
	.long	.LASF0
	.long	.LASF1
	.quad	.Ltext0
	.quad	.Letext0-.Ltext0
	.long	.Ldebug_line0
	.uleb128 0x4
	.long	.LASF2
	.byte	0x1f
	.long	0x5a
	.quad	.LFB3
	.quad	.LFE3-.LFB3
	.uleb128 0x1
	.byte	0x9c
	.long	0x5a
	.uleb128 0x2
	.string	"x"
	.byte	0x1f
	.byte	0x11
	.long	0x5a
	.uleb128 0x1
	.byte	0x55
	.byte	0
	.uleb128 0x8
	.byte	0x8
	.byte	0x5
	.long	.LASF8
	.uleb128 0x9
	.long	0x5a
	.uleb128 0xa
	.long	.LASF5
	.byte	0x1
	.byte	0x15
	.byte	0x6
	.quad	.LFB2
	.quad	.LFE2-.LFB2
	.uleb128 0x1
	.byte	0x9c
	.long	0xca
	.uleb128 0x3
	.string	"a"
	.byte	0x15
	.byte	0x12
	.long	0xca
	.long	.LLST7
	.long	.LVUS7
	.uleb128 0x3
	.string	"n"
	.byte	0x15
	.byte	0x1a
	.long	0x5a
	.long	.LLST8
	.long	.LVUS8
	.uleb128 0xb
	.quad	.LBB6
	.quad	.LBE6-.LBB6
	.uleb128 0x1
	.string	"i"
	.byte	0x17
	.byte	0xf
	.long	0x5a
	.long	.LLST9
	.long	.LVUS9
	.byte	0
	.byte	0
	.uleb128 0x5
	.long	0x5a
	.uleb128 0x4
	.long	.LASF3
	.byte	0xa
	.long	0x5a
	.quad	.LFB1
	.quad	.LFE1-.LFB1
	.uleb128 0x1
	.byte	0x9c
	.long	0x13c
	.uleb128 0x2
	.string	"a"
	.byte	0xa
	.byte	0x1d
	.long	0x13c
	.uleb128 0x1
	.byte	0x55
	.uleb128 0x2
	.string	"n"
	.byte	0xa
	.byte	0x25
	.long	0x5a
	.uleb128 0x1
	.byte	0x54
	.uleb128 0xc
	.long	.LASF4
	.byte	0x1
	.byte	0xa
	.byte	0x2d
	.long	0x5a
	.uleb128 0x1
	.byte	0x51
	.uleb128 0x1
	.string	"c"
	.byte	0xc
	.byte	0xa
	.long	0x5a
	.long	.LLST4
	.long	.LVUS4
	.uleb128 0x6
	.long	.LLRL5
	.uleb128 0x1
	.string	"i"
	.byte	0xd
	.byte	0xf
	.long	0x5a
	.long	.LLST6
	.long	.LVUS6
	.byte	0
	.byte	0
	.uleb128 0x5
	.long	0x61
	.uleb128 0xd
	.long	.LASF6
	.byte	0x1
	.byte	0x2
	.byte	0x6
	.long	0x5a
	.quad	.LFB0
	.quad	.LFE0-.LFB0
	.uleb128 0x1
	.byte	0x9c
	.uleb128 0x3
	.string	"a"
	.byte	0x2
	.byte	0x17
	.long	0x13c
	.long	.LLST0
	.long	.LVUS0
	.uleb128 0x2
	.string	"n"
	.byte	0x2
	.byte	0x1f
	.long	0x5a
	.uleb128 0x1
	.byte	0x54
	.uleb128 0x1
	.string	"s"
	.byte	0x4
	.byte	0xa
	.long	0x5a
	.long	.LLST1
	.long	.LVUS1
	.uleb128 0x6
	.long	.LLRL2
	.uleb128 0x1
	.string	"i"
	.byte	0x5
	.byte	0xf
	.long	0x5a
	.long	.LLST3
	.long	.LVUS3
	.byte	0
	.byte	0
	.byte	0
	.section	.debug_abbrev,"",@progbits
.Ldebug_abbrev0:
	.uleb128 0x1
	.uleb128 0x34
	.byte	0
	.uleb128 0x3
	.uleb128 0x8
	.uleb128 0x3a
	.uleb128 0x21
	.sleb128 1
	.uleb128 0x3b
	.uleb128 0xb
	.uleb128 0x39
	.uleb128 0xb
	.uleb128 0x49
	.uleb128 0x13
	.uleb128 0x2
	.uleb128 0x17
	.uleb128 0x2137
	.uleb128 0x17
	.byte	0
	.byte	0
	.uleb128 0x2
	.uleb128 0x5
	.byte	0
	.uleb128 0x3
	.uleb128 0x8
	.uleb128 0x3a
	.uleb128 0x21
	.sleb128 1
	.uleb128 0x3b
	.uleb128 0xb
	.uleb128 0x39
	.uleb128 0xb
	.uleb128 0x49
	.uleb128 0x13
	.uleb128 0x2
	.uleb128 0x18
	.byte	0
	.byte	0
	.uleb128 0x3
	.uleb128 0x5
	.byte	0
	.uleb128 0x3
	.uleb128 0x8
	.uleb128 0x3a
	.uleb128 0x21
	.sleb128 1
	.uleb128 0x3b
	.uleb128 0xb
	.uleb128 0x39
	.uleb128 0xb
	.uleb128 0x49
	.uleb128 0x13
	.uleb128 0x2
	.uleb128 0x17
	.uleb128 0x2137
	.uleb128 0x17
	.byte	0
	.byte	0
	.uleb128 0x4
	.uleb128 0x2e
	.byte	0x1
	.uleb128 0x3f
	.uleb128 0x19
	.uleb128 0x3
	.uleb128 0xe
	.uleb128 0x3a
	.uleb128 0x21
	.sleb128 1
	.uleb128 0x3b
	.uleb128 0xb
	.uleb128 0x39
	.uleb128 0x21
	.sleb128 6
	.uleb128 0x27
	.uleb128 0x19
	.uleb128 0x49
	.uleb128 0x13
	.uleb128 0x11
	.uleb128 0x1
	.uleb128 0x12
	.uleb128 0x7
	.uleb128 0x40
	.uleb128 0x18
	.uleb128 0x7a
	.uleb128 0x19
	.uleb128 0x1
	.uleb128 0x13
	.byte	0
	.byte	0
	.uleb128 0x5
	.uleb128 0xf
	.byte	0
	.uleb128 0xb
	.uleb128 0x21
	.sleb128 8
	.uleb128 0x49
	.uleb128 0x13
	.byte	0
	.byte	0
	.uleb128 0x6
	.uleb128 0xb
	.byte	0x1
	.uleb128 0x55
	.uleb128 0x17
	.byte	0
	.byte	0
	.uleb128 0x7
	.uleb128 0x11
	.byte	0x1
	.uleb128 0x25
	.uleb128 0xe
	.uleb128 0x13
	.uleb128 0xb
	.uleb128 0x3
	.uleb128 0x1f
	.uleb128 0x1b
	.uleb128 0x1f
	.uleb128 0x11
	.uleb128 0x1
	.uleb128 0x12
	.uleb128 0x7
	.uleb128 0x10
	.uleb128 0x17
	.byte	0
	.byte	0
	.uleb128 0x8
	.uleb128 0x24
	.byte	0
	.uleb128 0xb
	.uleb128 0xb
	.uleb128 0x3e
	.uleb128 0xb
	.uleb128 0x3
	.uleb128 0xe
	.byte	0
	.byte	0
	.uleb128 0x9
	.uleb128 0x26
	.byte	0
	.uleb128 0x49
	.uleb128 0x13
	.byte	0
	.byte	0
	.uleb128 0xa
	.uleb128 0x2e
	.byte	0x1
	.uleb128 0x3f
	.uleb128 0x19
	.uleb128 0x3
	.uleb128 0xe
	.uleb128 0x3a
	.uleb128 0xb
	.uleb128 0x3b
	.uleb128 0xb
	.uleb128 0x39
	.uleb128 0xb
	.uleb128 0x27
	.uleb128 0x19
	.uleb128 0x11
	.uleb128 0x1
	.uleb128 0x12
	.uleb128 0x7
	.uleb128 0x40
	.uleb128 0x18
	.uleb128 0x7a
	.uleb128 0x19
	.uleb128 0x1
	.uleb128 0x13
	.byte	0
	.byte	0
	.uleb128 0xb
	.uleb128 0xb
	.byte	0x1
	.uleb128 0x11
	.uleb128 0x1
	.uleb128 0x12
	.uleb128 0x7
	.byte	0
	.byte	0
	.uleb128 0xc
	.uleb128 0x5
	.byte	0
	.uleb128 0x3
	.uleb128 0xe
	.uleb128 0x3a
	.uleb128 0xb
	.uleb128 0x3b
	.uleb128 0xb
	.uleb128 0x39
	.uleb128 0xb
	.uleb128 0x49
	.uleb128 0x13
	.uleb128 0x2
	.uleb128 0x18
	.byte	0
	.byte	0
	.uleb128 0xd
	.uleb128 0x2e
	.byte	0x1
	.uleb128 0x3f
	.uleb128 0x19
	.uleb128 0x3
	.uleb128 0xe
	.uleb128 0x3a
	.uleb128 0xb
	.uleb128 0x3b
	.uleb128 0xb
	.uleb128 0x39
	.uleb128 0xb
	.uleb128 0x27
	.uleb128 0x19
	.uleb128 0x49
	.uleb128 0x13
	.uleb128 0x11
	.uleb128 0x1
	.uleb128 0x12
	.uleb128 0x7
	.uleb128 0x40
	.uleb128 0x18
	.uleb128 0x7a
	.uleb128 0x19
	.byte	0
	.byte	0
	.byte	0
	.section	.debug_loclists,"",@progbits
	.long	.Ldebug_loc3-.Ldebug_loc2
.Ldebug_loc2:
	.value	0x5
	.byte	0x8
	.byte	0
	.long	0
.Ldebug_loc0:
.LVUS7:
	.uleb128 0
	.uleb128 .LVU42
	.uleb128 .LVU42
	.uleb128 0
.LLST7:
	.byte	0x4
	.uleb128 .LVL11-.Ltext0
	.uleb128 .LVL13-.Ltext0
	.uleb128 0x1
	.byte	0x55
	.byte	0x4
	.uleb128 .LVL13-.Ltext0
	.uleb128 .LFE2-.Ltext0
	.uleb128 0x4
	.byte	0xa3
	.uleb128 0x1
	.byte	0x55
	.byte	0x9f
	.byte	0
.LVUS8:
	.uleb128 0
	.uleb128 .LVU41
	.uleb128 .LVU41
	.uleb128 0
.LLST8:
	.byte	0x4
	.uleb128 .LVL11-.Ltext0
	.uleb128 .LVL12-.Ltext0
	.uleb128 0x1
	.byte	0x54
	.byte	0x4
	.uleb128 .LVL12-.Ltext0
	.uleb128 .LFE2-.Ltext0
	.uleb128 0x4
	.byte	0xa3
	.uleb128 0x1
	.byte	0x54
	.byte	0x9f
	.byte	0
.LVUS9:
	.uleb128 .LVU40
	.uleb128 .LVU42
.LLST9:
	.byte	0x4
	.uleb128 .LVL11-.Ltext0
	.uleb128 .LVL13-.Ltext0
	.uleb128 0x2
	.byte	0x30
	.byte	0x9f
	.byte	0
.LVUS4:
	.uleb128 .LVU19
	.uleb128 .LVU24
	.uleb128 .LVU24
	.uleb128 .LVU32
	.uleb128 .LVU34
	.uleb128 0
.LLST4:
	.byte	0x4
	.uleb128 .LVL4-.Ltext0
	.uleb128 .LVL5-.Ltext0
	.uleb128 0x2
	.byte	0x30
	.byte	0x9f
	.byte	0x4
	.uleb128 .LVL5-.Ltext0
	.uleb128 .LVL9-.Ltext0
	.uleb128 0x1
	.byte	0x58
	.byte	0x4
	.uleb128 .LVL10-.Ltext0
	.uleb128 .LFE1-.Ltext0
	.uleb128 0x2
	.byte	0x30
	.byte	0x9f
	.byte	0
.LVUS6:
	.uleb128 .LVU21
	.uleb128 .LVU24
	.uleb128 .LVU24
	.uleb128 .LVU26
	.uleb128 .LVU26
	.uleb128 .LVU28
	.uleb128 .LVU28
	.uleb128 .LVU32
	.uleb128 .LVU34
	.uleb128 0
.LLST6:
	.byte	0x4
	.uleb128 .LVL4-.Ltext0
	.uleb128 .LVL5-.Ltext0
	.uleb128 0x2
	.byte	0x30
	.byte	0x9f
	.byte	0x4
	.uleb128 .LVL5-.Ltext0
	.uleb128 .LVL6-.Ltext0
	.uleb128 0x1
	.byte	0x50
	.byte	0x4
	.uleb128 .LVL6-.Ltext0
	.uleb128 .LVL7-.Ltext0
	.uleb128 0x3
	.byte	0x70
	.sleb128 -1
	.byte	0x9f
	.byte	0x4
	.uleb128 .LVL7-.Ltext0
	.uleb128 .LVL9-.Ltext0
	.uleb128 0x1
	.byte	0x50
	.byte	0x4
	.uleb128 .LVL10-.Ltext0
	.uleb128 .LFE1-.Ltext0
	.uleb128 0x2
	.byte	0x30
	.byte	0x9f
	.byte	0
.LVUS0:
	.uleb128 0
	.uleb128 .LVU6
	.uleb128 .LVU6
	.uleb128 .LVU14
	.uleb128 .LVU14
	.uleb128 0
.LLST0:
	.byte	0x4
	.uleb128 .LVL0-.Ltext0
	.uleb128 .LVL1-.Ltext0
	.uleb128 0x1
	.byte	0x55
	.byte	0x4
	.uleb128 .LVL1-.Ltext0
	.uleb128 .LVL3-.Ltext0
	.uleb128 0x4
	.byte	0xa3
	.uleb128 0x1
	.byte	0x55
	.byte	0x9f
	.byte	0x4
	.uleb128 .LVL3-.Ltext0
	.uleb128 .LFE0-.Ltext0
	.uleb128 0x1
	.byte	0x55
	.byte	0
.LVUS1:
	.uleb128 .LVU2
	.uleb128 .LVU6
	.uleb128 .LVU6
	.uleb128 .LVU14
	.uleb128 .LVU14
	.uleb128 0
.LLST1:
	.byte	0x4
	.uleb128 .LVL0-.Ltext0
	.uleb128 .LVL1-.Ltext0
	.uleb128 0x2
	.byte	0x30
	.byte	0x9f
	.byte	0x4
	.uleb128 .LVL1-.Ltext0
	.uleb128 .LVL3-.Ltext0
	.uleb128 0x1
	.byte	0x51
	.byte	0x4
	.uleb128 .LVL3-.Ltext0
	.uleb128 .LFE0-.Ltext0
	.uleb128 0x2
	.byte	0x30
	.byte	0x9f
	.byte	0
.LVUS3:
	.uleb128 .LVU4
	.uleb128 .LVU6
	.uleb128 .LVU14
	.uleb128 0
.LLST3:
	.byte	0x4
	.uleb128 .LVL0-.Ltext0
	.uleb128 .LVL1-.Ltext0
	.uleb128 0x2
	.byte	0x30
	.byte	0x9f
	.byte	0x4
	.uleb128 .LVL3-.Ltext0
	.uleb128 .LFE0-.Ltext0
	.uleb128 0x2
	.byte	0x30
	.byte	0x9f
	.byte	0
.Ldebug_loc3:
	.section	.debug_aranges,"",@progbits
	.long	0x2c
	.value	0x2
	.long	.Ldebug_info0
	.byte	0x8
	.byte	0
	.value	0
	.value	0
	.quad	.Ltext0
	.quad	.Letext0-.Ltext0
	.quad	0
	.quad	0
	.section	.debug_rnglists,"",@progbits
.Ldebug_ranges0:
	.long	.Ldebug_ranges3-.Ldebug_ranges2
.Ldebug_ranges2:
	.value	0x5
	.byte	0x8
	.byte	0
	.long	0
.LLRL2:
	.byte	0x4
	.uleb128 .LBB2-.Ltext0
	.uleb128 .LBE2-.Ltext0
	.byte	0x4
	.uleb128 .LBB3-.Ltext0
	.uleb128 .LBE3-.Ltext0
	.byte	0
.LLRL5:
	.byte	0x4
	.uleb128 .LBB4-.Ltext0
	.uleb128 .LBE4-.Ltext0
	.byte	0x4
	.uleb128 .LBB5-.Ltext0
	.uleb128 .LBE5-.Ltext0
	.byte	0
.Ldebug_ranges3:
	.section	.debug_line,"",@progbits
.Ldebug_line0:
	.section	.debug_str,"MS",@progbits,1
.LASF5:
	.string	"clamp"
.LASF4:
	.string	"stop"
.LASF7:
	.string	"GNU C17 12.2.0 -mtune=generic -march=x86-64 -g -O2 -fasynchronous-unwind-tables"
.LASF2:
	.string	"twice"
.LASF8:
	.string	"long int"
.LASF6:
	.string	"sum3"
.LASF3:
	.string	"until_stop"
	.section	.debug_line_str,"MS",@progbits,1
.LASF1:
	.string	"."
.LASF0:
	.string	"c/unmarked.c"
	.ident	"GCC: (Debian 12.2.0-14+deb12u1) 12.2.0"
	.section	.note.GNU-stack,"",@progbits
