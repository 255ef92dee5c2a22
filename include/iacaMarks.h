/*
 * iacaMarks.h - region markers for suaca (and any tool that reads Intel IACA's markers).
 *
 * Part of suaca, under the project's licence. Written for suaca; the byte sequences are the
 * ones Intel's IACA defined, so binaries marked with this header also work with IACA and
 * the other tools that look for its markers.
 *
 *   IACA_START   mov ebx, 111 ; then the bytes 64 67 90 (fs addr32 nop)
 *   IACA_END     mov ebx, 222 ; then the bytes 64 67 90
 *
 * Usage (x86-64, GCC or Clang):
 *
 *   #include "iacaMarks.h"
 *   for (i = 0; i < n; i++) {
 *       IACA_START
 *       a[i] = b[i] + c[i];
 *   }
 *   IACA_END
 *
 * suaca analyzes the code between the markers; with IACA_START at the top of the body the
 * region ends with the loop's back branch, which suaca recognises as a loop.
 *
 * The markers are real instructions: they overwrite ebx (declared as clobbered, so the
 * compiler saves what it kept there) and act as a compiler memory barrier, so that the
 * marked code stays between them. Inside a loop body that barrier can stop GCC and Clang
 * from vectorizing or unrolling the loop, so the marked code may not be the code you ship.
 * To measure the loop the compiler really emits, leave the source unmarked and mark the
 * compiler's assembly instead (`cc -O3 -S f.c`, then put `# LLVM-MCA-BEGIN` and
 * `# LLVM-MCA-END` comment lines around the loop and run `suaca f.s`), or put IACA_START
 * and IACA_END outside the loop and analyze the whole loop nest as one region.
 *
 * MSVC (x64) has no inline assembly: IACA_START/IACA_END there use __writegsbyte, which
 * emits `mov byte ptr gs:[111], 111` / `gs:[222], 222`, the MSVC flavour of the markers that
 * suaca also finds. Never run a binary built with markers: they are for analysis only
 * (the gs store faults on Windows x64 user mode).
 */
#ifndef SUACA_IACA_MARKS_H
#define SUACA_IACA_MARKS_H

#if defined(__GNUC__) || defined(__clang__)

/* `{att|intel}`: the same instructions whether the file is built with -masm=att or
 * -masm=intel. */
#define SUACA_MARK_(id)                                                   \
    __asm__ __volatile__("{movl $" #id ", %%ebx|mov ebx, " #id "}\n\t"    \
                         ".byte 0x64, 0x67, 0x90"                         \
                         :                                                \
                         :                                                \
                         : "ebx", "memory");

#define IACA_START SUACA_MARK_(111)
#define IACA_END SUACA_MARK_(222)

#elif defined(_MSC_VER) && defined(_M_X64)

#include <intrin.h>
#define IACA_START __writegsbyte(111, 111);
#define IACA_END __writegsbyte(222, 222);

#else
#error "iacaMarks.h: x86-64 with GCC, Clang or MSVC only"
#endif

#endif /* SUACA_IACA_MARKS_H */
