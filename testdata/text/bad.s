	.text
	addq	%rax, %rbx
	# the next line is not an instruction
	frobnicate %rax
	addq	%rbx, %rbx
