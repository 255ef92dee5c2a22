	.file	"sum.c"
	.text
.Ltext0:
	.file 0 "/work/wt/tools/testdata/text" "sum.c"
	.p2align 4
	.globl	sum
	.type	sum, @function
sum:
.LVL0:
.LFB0:
	.file 1 "sum.c"
	.loc 1 1 27 view -0
	.cfi_startproc
	.loc 1 2 5 view .LVU1
	.loc 1 3 5 view .LVU2
.LBB2:
	.loc 1 3 10 view .LVU3
	.loc 1 3 24 view .LVU4
	testq	%rsi, %rsi
	jle	.L4
	.loc 1 3 15 is_stmt 0 view .LVU5
	xorl	%eax, %eax
.LBE2:
	.loc 1 2 10 view .LVU6
	xorl	%ecx, %ecx
.LVL1:
	.p2align 4,,10
	.p2align 3
.L3:
.LBB3:
	.loc 1 4 9 is_stmt 1 discriminator 3 view .LVU7
#APP
# 4 "sum.c" 1
	# LLVM-MCA-BEGIN body
# 0 "" 2
	.loc 1 5 9 discriminator 3 view .LVU8
	.loc 1 5 19 is_stmt 0 discriminator 3 view .LVU9
#NO_APP
	movq	(%rdi,%rax,8), %rdx
	leaq	(%rdx,%rdx,2), %rdx
	.loc 1 5 11 discriminator 3 view .LVU10
	addq	%rdx, %rcx
.LVL2:
	.loc 1 6 9 is_stmt 1 discriminator 3 view .LVU11
#APP
# 6 "sum.c" 1
	# LLVM-MCA-END
# 0 "" 2
	.loc 1 3 30 discriminator 3 view .LVU12
#NO_APP
	addq	$1, %rax
.LVL3:
	.loc 1 3 24 discriminator 3 view .LVU13
	cmpq	%rax, %rsi
	jne	.L3
.LBE3:
	.loc 1 9 1 is_stmt 0 view .LVU14
	movq	%rcx, %rax
.LVL4:
	.loc 1 9 1 view .LVU15
	ret
.LVL5:
	.p2align 4,,10
	.p2align 3
.L4:
	.loc 1 2 10 view .LVU16
	xorl	%ecx, %ecx
	.loc 1 8 5 is_stmt 1 view .LVU17
	.loc 1 9 1 is_stmt 0 view .LVU18
	movq	%rcx, %rax
	ret
	.cfi_endproc
.LFE0:
	.size	sum, .-sum
.Letext0:
	.section	.debug_info,"",@progbits
.Ldebug_info0:
	.long	0x97
	.value	0x5
	.byte	0x1
	.byte	0x8
	.long	.Ldebug_abbrev0
	.uleb128 0x3
	.long	.LASF2
	.byte	0x1d
	.long	.LASF0
	.long	.LASF1
	.quad	.Ltext0
	.quad	.Letext0-.Ltext0
	.long	.Ldebug_line0
	.uleb128 0x4
	.string	"sum"
	.byte	0x1
	.byte	0x1
	.byte	0x6
	.long	0x8d
	.quad	.LFB0
	.quad	.LFE0-.LFB0
	.uleb128 0x1
	.byte	0x9c
	.long	0x8d
	.uleb128 0x1
	.string	"a"
	.byte	0x10
	.long	0x94
	.uleb128 0x1
	.byte	0x55
	.uleb128 0x1
	.string	"n"
	.byte	0x18
	.long	0x8d
	.uleb128 0x1
	.byte	0x54
	.uleb128 0x2
	.string	"s"
	.byte	0x2
	.byte	0xa
	.long	0x8d
	.long	.LLST0
	.long	.LVUS0
	.uleb128 0x5
	.long	.LLRL1
	.uleb128 0x2
	.string	"i"
	.byte	0x3
	.byte	0xf
	.long	0x8d
	.long	.LLST2
	.long	.LVUS2
	.byte	0
	.byte	0
	.uleb128 0x6
	.byte	0x8
	.byte	0x5
	.long	.LASF3
	.uleb128 0x7
	.byte	0x8
	.long	0x8d
	.byte	0
	.section	.debug_abbrev,"",@progbits
.Ldebug_abbrev0:
	.uleb128 0x1
	.uleb128 0x5
	.byte	0
	.uleb128 0x3
	.uleb128 0x8
	.uleb128 0x3a
	.uleb128 0x21
	.sleb128 1
	.uleb128 0x3b
	.uleb128 0x21
	.sleb128 1
	.uleb128 0x39
	.uleb128 0xb
	.uleb128 0x49
	.uleb128 0x13
	.uleb128 0x2
	.uleb128 0x18
	.byte	0
	.byte	0
	.uleb128 0x2
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
	.uleb128 0x3
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
	.uleb128 0x4
	.uleb128 0x2e
	.byte	0x1
	.uleb128 0x3f
	.uleb128 0x19
	.uleb128 0x3
	.uleb128 0x8
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
	.uleb128 0x1
	.uleb128 0x13
	.byte	0
	.byte	0
	.uleb128 0x5
	.uleb128 0xb
	.byte	0x1
	.uleb128 0x55
	.uleb128 0x17
	.byte	0
	.byte	0
	.uleb128 0x6
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
	.uleb128 0x7
	.uleb128 0xf
	.byte	0
	.uleb128 0xb
	.uleb128 0xb
	.uleb128 0x49
	.uleb128 0x13
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
.LVUS0:
	.uleb128 .LVU2
	.uleb128 .LVU7
	.uleb128 .LVU7
	.uleb128 .LVU16
	.uleb128 .LVU16
	.uleb128 0
.LLST0:
	.byte	0x4
	.uleb128 .LVL0-.Ltext0
	.uleb128 .LVL1-.Ltext0
	.uleb128 0x2
	.byte	0x30
	.byte	0x9f
	.byte	0x4
	.uleb128 .LVL1-.Ltext0
	.uleb128 .LVL5-.Ltext0
	.uleb128 0x1
	.byte	0x52
	.byte	0x4
	.uleb128 .LVL5-.Ltext0
	.uleb128 .LFE0-.Ltext0
	.uleb128 0x2
	.byte	0x30
	.byte	0x9f
	.byte	0
.LVUS2:
	.uleb128 .LVU4
	.uleb128 .LVU7
	.uleb128 .LVU7
	.uleb128 .LVU15
	.uleb128 .LVU16
	.uleb128 0
.LLST2:
	.byte	0x4
	.uleb128 .LVL0-.Ltext0
	.uleb128 .LVL1-.Ltext0
	.uleb128 0x2
	.byte	0x30
	.byte	0x9f
	.byte	0x4
	.uleb128 .LVL1-.Ltext0
	.uleb128 .LVL4-.Ltext0
	.uleb128 0x1
	.byte	0x50
	.byte	0x4
	.uleb128 .LVL5-.Ltext0
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
.LLRL1:
	.byte	0x4
	.uleb128 .LBB2-.Ltext0
	.uleb128 .LBE2-.Ltext0
	.byte	0x4
	.uleb128 .LBB3-.Ltext0
	.uleb128 .LBE3-.Ltext0
	.byte	0
.Ldebug_ranges3:
	.section	.debug_line,"",@progbits
.Ldebug_line0:
	.section	.debug_str,"MS",@progbits,1
.LASF3:
	.string	"long int"
.LASF2:
	.string	"GNU C17 12.2.0 -mtune=generic -march=x86-64 -g -O2 -fasynchronous-unwind-tables"
	.section	.debug_line_str,"MS",@progbits,1
.LASF1:
	.string	"/work/wt/tools/testdata/text"
.LASF0:
	.string	"sum.c"
	.ident	"GCC: (Debian 12.2.0-14+deb12u1) 12.2.0"
	.section	.note.GNU-stack,"",@progbits
