/* No markers at all: the whole .text section is one region. */
	.text
	movq	$6, %rax
	addq	%rax, %rbx
	addq	%rbx, %rbx
