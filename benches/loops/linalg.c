/* Dense linear algebra inner loops and complex arithmetic (suaca loop benchmark). */

void matvec_f64(double *restrict y, const double *restrict a, const double *restrict x, long m,
                long n) {
    for (long i = 0; i < m; i++) {
        double s = 0.0;
        for (long j = 0; j < n; j++)
            s += a[i * n + j] * x[j];
        y[i] = s;
    }
}

/* y += A^T x: the inner loop is an axpy over a row. */
void matvec_t_f32(float *restrict y, const float *restrict a, const float *restrict x, long m,
                  long n) {
    for (long i = 0; i < m; i++)
        for (long j = 0; j < n; j++)
            y[j] += a[i * n + j] * x[i];
}

/* i-j-k order: the inner loop strides through a column of b. */
void matmul_ijk_f64(double *restrict c, const double *restrict a, const double *restrict b,
                    long n) {
    for (long i = 0; i < n; i++)
        for (long j = 0; j < n; j++) {
            double s = 0.0;
            for (long k = 0; k < n; k++)
                s += a[i * n + k] * b[k * n + j];
            c[i * n + j] = s;
        }
}

/* i-k-j order: the inner loop streams a row of b into a row of c. */
void matmul_ikj_f32(float *restrict c, const float *restrict a, const float *restrict b,
                    long n) {
    for (long i = 0; i < n; i++)
        for (long k = 0; k < n; k++) {
            float aik = a[i * n + k];
            for (long j = 0; j < n; j++)
                c[i * n + j] += aik * b[k * n + j];
        }
}

void matmul_ikj_i32(int *restrict c, const int *restrict a, const int *restrict b, long n) {
    for (long i = 0; i < n; i++)
        for (long k = 0; k < n; k++) {
            int aik = a[i * n + k];
            for (long j = 0; j < n; j++)
                c[i * n + j] += aik * b[k * n + j];
        }
}

/* Interleaved complex numbers (re, im pairs). */
void cmul_f32(float *restrict z, const float *restrict x, const float *restrict y, long n) {
    for (long i = 0; i < n; i++) {
        float a = x[2 * i], b = x[2 * i + 1], c = y[2 * i], d = y[2 * i + 1];
        z[2 * i] = a * c - b * d;
        z[2 * i + 1] = a * d + b * c;
    }
}

/* Split arrays of real and imaginary parts. */
void cmul_split_f64(double *restrict zr, double *restrict zi, const double *restrict xr,
                    const double *restrict xi, const double *restrict yr,
                    const double *restrict yi, long n) {
    for (long i = 0; i < n; i++) {
        zr[i] = xr[i] * yr[i] - xi[i] * yi[i];
        zi[i] = xr[i] * yi[i] + xi[i] * yr[i];
    }
}

/* Complex dot product, accumulated in two scalars. */
void cdot_f64(double *restrict out, const double *restrict x, const double *restrict y, long n) {
    double re = 0.0, im = 0.0;
    for (long i = 0; i < n; i++) {
        re += x[2 * i] * y[2 * i] - x[2 * i + 1] * y[2 * i + 1];
        im += x[2 * i] * y[2 * i + 1] + x[2 * i + 1] * y[2 * i];
    }
    out[0] = re;
    out[1] = im;
}
