long sum(long *a, long n) {
    long s = 0;
    for (long i = 0; i < n; i++) {
        __asm__ volatile("# LLVM-MCA-BEGIN body");
        s += a[i] * 3;
        __asm__ volatile("# LLVM-MCA-END");
    }
    return s;
}
