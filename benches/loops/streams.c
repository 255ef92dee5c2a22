/* Stream kernels: one pass over arrays, no reuse (suaca loop benchmark, benches/loops/README.md). */

void copy_f32(float *restrict dst, const float *restrict src, long n) {
    for (long i = 0; i < n; i++)
        dst[i] = src[i];
}

void copy_i64(long *restrict dst, const long *restrict src, long n) {
    for (long i = 0; i < n; i++)
        dst[i] = src[i];
}

void scale_f64(double *restrict dst, const double *restrict src, double s, long n) {
    for (long i = 0; i < n; i++)
        dst[i] = s * src[i];
}

void scale_i32(int *restrict dst, const int *restrict src, int s, long n) {
    for (long i = 0; i < n; i++)
        dst[i] = s * src[i];
}

void add_f64(double *restrict c, const double *restrict a, const double *restrict b, long n) {
    for (long i = 0; i < n; i++)
        c[i] = a[i] + b[i];
}

void add_i32(int *restrict c, const int *restrict a, const int *restrict b, long n) {
    for (long i = 0; i < n; i++)
        c[i] = a[i] + b[i];
}

void triad_f64(double *restrict a, const double *restrict b, const double *restrict c,
               double q, long n) {
    for (long i = 0; i < n; i++)
        a[i] = b[i] + q * c[i];
}

void triad_f32(float *restrict a, const float *restrict b, const float *restrict c, float q,
               long n) {
    for (long i = 0; i < n; i++)
        a[i] = b[i] + q * c[i];
}

void saxpy(float *restrict y, const float *restrict x, float a, long n) {
    for (long i = 0; i < n; i++)
        y[i] += a * x[i];
}

void daxpy(double *restrict y, const double *restrict x, double a, long n) {
    for (long i = 0; i < n; i++)
        y[i] += a * x[i];
}

/* In place, no restrict: the compiler has to keep the order of the updates. */
void scale_inplace_f32(float *x, float s, long n) {
    for (long i = 0; i < n; i++)
        x[i] *= s;
}

/* Strided reads: every third element. */
void stride3_sum_store_f64(double *restrict dst, const double *restrict src, long n) {
    for (long i = 0; i < n; i++)
        dst[i] = src[3 * i] + src[3 * i + 1];
}
