/* Integer division, bit tricks and conditional moves (suaca loop benchmark). */

void div_i32(int *restrict q, const int *restrict a, const int *restrict b, long n) {
    for (long i = 0; i < n; i++)
        q[i] = a[i] / b[i];
}

void div_u64(unsigned long *restrict q, const unsigned long *restrict a,
             const unsigned long *restrict b, long n) {
    for (long i = 0; i < n; i++)
        q[i] = a[i] / b[i];
}

/* Division by a constant: multiply and shift. */
void mod7_u32(unsigned *restrict r, const unsigned *restrict a, long n) {
    for (long i = 0; i < n; i++)
        r[i] = a[i] % 7u;
}

void div_f64(double *restrict q, const double *restrict a, const double *restrict b, long n) {
    for (long i = 0; i < n; i++)
        q[i] = a[i] / b[i];
}

void sqrt_f32(float *restrict out, const float *restrict in, long n) {
    for (long i = 0; i < n; i++)
        out[i] = __builtin_sqrtf(in[i]);
}

long popcount_sum(const unsigned long *a, long n) {
    long s = 0;
    for (long i = 0; i < n; i++)
        s += __builtin_popcountl(a[i]);
    return s;
}

void ctz_u64(int *restrict out, const unsigned long *restrict a, long n) {
    for (long i = 0; i < n; i++)
        out[i] = __builtin_ctzl(a[i] | 1ul << 63);
}

/* One bit per step of a reflected CRC-32 (polynomial 0xEDB88320), bounded by a bit count. */
unsigned crc32_bits(unsigned crc, const unsigned char *data, long nbits) {
    for (long i = 0; i < nbits; i++) {
        unsigned bit = (crc ^ (data[i >> 3] >> (i & 7))) & 1u;
        crc = (crc >> 1) ^ (0xEDB88320u & -bit);
    }
    return crc;
}

/* xorshift64 random numbers: one long dependency chain. */
void xorshift_fill(unsigned long *restrict out, unsigned long state, long n) {
    for (long i = 0; i < n; i++) {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        out[i] = state;
    }
}

void bswap_u32(unsigned *restrict out, const unsigned *restrict in, long n) {
    for (long i = 0; i < n; i++)
        out[i] = __builtin_bswap32(in[i]);
}

/* FNV-1a hash of a byte string: a multiply in the chain. */
unsigned long fnv1a(const unsigned char *s, long n) {
    unsigned long h = 0xcbf29ce484222325ul;
    for (long i = 0; i < n; i++)
        h = (h ^ s[i]) * 0x100000001b3ul;
    return h;
}

void clamp_i32(int *restrict out, const int *restrict in, int lo, int hi, long n) {
    for (long i = 0; i < n; i++) {
        int v = in[i];
        out[i] = v < lo ? lo : v > hi ? hi : v;
    }
}

void select_f64(double *restrict out, const double *restrict a, const double *restrict b, long n) {
    for (long i = 0; i < n; i++)
        out[i] = a[i] > 0.0 ? a[i] : b[i];
}

void relu_f32(float *restrict x, long n) {
    for (long i = 0; i < n; i++)
        x[i] = x[i] > 0.0f ? x[i] : 0.0f;
}

long abs_diff_sum(const long *a, const long *b, long n) {
    long s = 0;
    for (long i = 0; i < n; i++) {
        long d = a[i] - b[i];
        s += d < 0 ? -d : d;
    }
    return s;
}

/* A conditional update of a running value that compilers keep scalar (cmov). */
long running_argmax(const long *a, long n) {
    long best = 0;
    for (long i = 1; i < n; i++)
        best = a[i] > a[best] ? i : best;
    return best;
}
