# Loop-picking fixture (examples/loop_set/pick.rs, tests/loop_set.rs): functions with known
# single-block loops. ELF relocatable object only.
        .intel_syntax noprefix
        .text

# A scalar loop, then a shorter vector loop: the vector loop is the main one.
        .globl  scalar_then_vector
        .type   scalar_then_vector, @function
scalar_then_vector:
        xor     eax, eax
1:      add     rax, qword ptr [rdi + 8*rcx]
        add     rcx, 1
        cmp     rcx, rsi
        jne     1b
2:      vaddpd  ymm0, ymm0, ymmword ptr [rdi]
        add     rdi, 32
        dec     rdx
        jnz     2b
        ret
        .size   scalar_then_vector, . - scalar_then_vector

# Nested loops: only the inner one is a single block.
        .globl  nested
        .type   nested, @function
nested:
        xor     eax, eax
1:      mov     rcx, rsi
2:      add     rax, rcx
        dec     rcx
        jnz     2b
        dec     rdx
        jnz     1b
        ret
        .size   nested, . - nested

# A call in the body, and a jump into the middle of a body: no single-block loop.
        .globl  no_single_block
        .type   no_single_block, @function
no_single_block:
1:      call    no_single_block
        dec     rdi
        jnz     1b
        jmp     3f
2:      add     rax, 1
3:      add     rax, 2
        dec     rsi
        jnz     2b
        ret
        .size   no_single_block, . - no_single_block

# Two scalar loops of equal length: the first (lowest address) is the main one; the second
# is a `loop` instruction.
        .globl  tie
        .type   tie, @function
tie:
1:      imul    rax, rax
        dec     rcx
        jnz     1b
2:      imul    rdx, rdx
        nop
        loop    2b
        ret
        .size   tie, . - tie

# The same body twice, in two functions: one distinct loop with two origins.
        .globl  dup_a
        .type   dup_a, @function
dup_a:
1:      add     rax, qword ptr [rdi]
        add     rdi, 8
        dec     rsi
        jnz     1b
        ret
        .size   dup_a, . - dup_a

        .globl  dup_b
        .type   dup_b, @function
dup_b:
        mov     eax, 1
1:      add     rax, qword ptr [rdi]
        add     rdi, 8
        dec     rsi
        jnz     1b
        ret
        .size   dup_b, . - dup_b
