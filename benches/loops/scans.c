/* Prefix sums and bounded scans (suaca loop benchmark). Scans stop at the length; the
 * early-exit forms have two exits, so a compiler that keeps them scalar gives no
 * single-block loop (the benchmark logs that and goes on). */

void prefix_sum_i32(int *restrict out, const int *restrict in, long n) {
    int s = 0;
    for (long i = 0; i < n; i++) {
        s += in[i];
        out[i] = s;
    }
}

void prefix_sum_f64(double *restrict out, const double *restrict in, long n) {
    double s = 0.0;
    for (long i = 0; i < n; i++) {
        s += in[i];
        out[i] = s;
    }
}

/* In place: each element depends on the one just stored. */
void prefix_sum_inplace_i64(long *a, long n) {
    for (long i = 1; i < n; i++)
        a[i] += a[i - 1];
}

long strnlen_bounded(const char *s, long n) {
    long i = 0;
    while (i < n && s[i] != 0)
        i++;
    return i;
}

long memchr_index(const unsigned char *s, unsigned char c, long n) {
    for (long i = 0; i < n; i++)
        if (s[i] == c)
            return i;
    return -1;
}

/* Branch-free scans: the whole length is read. */
long count_byte(const unsigned char *s, unsigned char c, long n) {
    long k = 0;
    for (long i = 0; i < n; i++)
        k += s[i] == c;
    return k;
}

long last_index_of(const int *a, int v, long n) {
    long pos = -1;
    for (long i = 0; i < n; i++)
        pos = a[i] == v ? i : pos;
    return pos;
}

long count_less_f64(const double *a, double t, long n) {
    long k = 0;
    for (long i = 0; i < n; i++)
        k += a[i] < t;
    return k;
}
