/* Mixed integer and floating-point work (suaca loop benchmark). */

void i32_to_f32_scale(float *restrict out, const int *restrict in, float s, long n) {
    for (long i = 0; i < n; i++)
        out[i] = (float)in[i] * s;
}

void f64_to_i32(int *restrict out, const double *restrict in, long n) {
    for (long i = 0; i < n; i++)
        out[i] = (int)in[i];
}

double int_sum_as_f64(const int *a, long n) {
    double s = 0.0;
    for (long i = 0; i < n; i++)
        s += (double)a[i];
    return s;
}

/* Horner evaluation of a cubic at every point. */
void poly3_f64(double *restrict y, const double *restrict x, long n) {
    for (long i = 0; i < n; i++) {
        double t = x[i];
        y[i] = ((0.5 * t - 1.5) * t + 2.0) * t - 0.25;
    }
}

void lerp_f32(float *restrict out, const float *restrict a, const float *restrict b,
              const float *restrict t, long n) {
    for (long i = 0; i < n; i++)
        out[i] = a[i] + t[i] * (b[i] - a[i]);
}

/* Table lookup with the index computed in floating point. */
void lut_f32(float *restrict out, const float *restrict x, const float *restrict table, long n) {
    for (long i = 0; i < n; i++) {
        int k = (int)(x[i] * 255.0f) & 255;
        out[i] = table[k];
    }
}

/* 16.16 fixed-point scaling of bytes to floats. */
void u8_to_f32_norm(float *restrict out, const unsigned char *restrict in, long n) {
    for (long i = 0; i < n; i++)
        out[i] = (float)in[i] * (1.0f / 255.0f);
}

/* Integer index arithmetic beside a floating-point accumulation. */
double strided_sum_f64(const double *a, long stride, long n) {
    double s = 0.0;
    for (long i = 0; i < n; i++)
        s += a[i * stride];
    return s;
}
