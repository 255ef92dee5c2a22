# AT&T syntax (GNU as default), region delimited by llvm-mca comments.
	.text
	.globl	kernel
	.type	kernel, @function
kernel:
	xorl	%eax, %eax
.L2:
	# LLVM-MCA-BEGIN loop
	addq	%rax, %rbx
	imulq	%rbx, %rcx
	addq	$1, %rax
	# LLVM-MCA-END
	cmpq	%rax, %rdi
	jne	.L2
	ret
	.size	kernel, .-kernel
