/* Reductions (suaca loop benchmark). Built with and without -ffast-math: without it the
 * floating-point sums stay one serial chain (no reassociation). */

int sum_i32(const int *a, long n) {
    int s = 0;
    for (long i = 0; i < n; i++)
        s += a[i];
    return s;
}

long sum_i64(const long *a, long n) {
    long s = 0;
    for (long i = 0; i < n; i++)
        s += a[i];
    return s;
}

float sum_f32(const float *a, long n) {
    float s = 0.0f;
    for (long i = 0; i < n; i++)
        s += a[i];
    return s;
}

double sum_f64(const double *a, long n) {
    double s = 0.0;
    for (long i = 0; i < n; i++)
        s += a[i];
    return s;
}

float dot_f32(const float *a, const float *b, long n) {
    float s = 0.0f;
    for (long i = 0; i < n; i++)
        s += a[i] * b[i];
    return s;
}

double dot_f64(const double *a, const double *b, long n) {
    double s = 0.0;
    for (long i = 0; i < n; i++)
        s += a[i] * b[i];
    return s;
}

long dot_i32(const int *a, const int *b, long n) {
    long s = 0;
    for (long i = 0; i < n; i++)
        s += (long)a[i] * b[i];
    return s;
}

int max_i32(const int *a, long n) {
    int m = a[0];
    for (long i = 1; i < n; i++)
        m = a[i] > m ? a[i] : m;
    return m;
}

float max_f32(const float *a, long n) {
    float m = a[0];
    for (long i = 1; i < n; i++)
        m = a[i] > m ? a[i] : m;
    return m;
}

double min_f64(const double *a, long n) {
    double m = a[0];
    for (long i = 1; i < n; i++)
        m = a[i] < m ? a[i] : m;
    return m;
}

double norm2_f64(const double *x, long n) {
    double s = 0.0;
    for (long i = 0; i < n; i++)
        s += x[i] * x[i];
    return s;
}

unsigned sum_u8(const unsigned char *a, long n) {
    unsigned s = 0;
    for (long i = 0; i < n; i++)
        s += a[i];
    return s;
}
