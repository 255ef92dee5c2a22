/* Stencils in 1, 2 and 3 dimensions (suaca loop benchmark). Grids are row-major with the
 * sizes as arguments; the innermost loop walks the last index. */

void stencil1d3_f64(double *restrict out, const double *restrict in, long n) {
    for (long i = 1; i < n - 1; i++)
        out[i] = 0.25 * in[i - 1] + 0.5 * in[i] + 0.25 * in[i + 1];
}

void stencil1d5_f32(float *restrict out, const float *restrict in, long n) {
    for (long i = 2; i < n - 2; i++)
        out[i] = 0.1f * (in[i - 2] + in[i + 2]) + 0.2f * (in[i - 1] + in[i + 1]) + 0.4f * in[i];
}

void stencil2d5_f64(double *restrict out, const double *restrict in, long ny, long nx) {
    for (long y = 1; y < ny - 1; y++)
        for (long x = 1; x < nx - 1; x++)
            out[y * nx + x] = 0.2 * (in[y * nx + x] + in[y * nx + x - 1] + in[y * nx + x + 1] +
                                     in[(y - 1) * nx + x] + in[(y + 1) * nx + x]);
}

void stencil2d9_f32(float *restrict out, const float *restrict in, long ny, long nx) {
    for (long y = 1; y < ny - 1; y++)
        for (long x = 1; x < nx - 1; x++) {
            const float *r0 = in + (y - 1) * nx, *r1 = in + y * nx, *r2 = in + (y + 1) * nx;
            out[y * nx + x] = (r0[x - 1] + r0[x] + r0[x + 1] + r1[x - 1] + r1[x] + r1[x + 1] +
                               r2[x - 1] + r2[x] + r2[x + 1]) *
                              (1.0f / 9.0f);
        }
}

void stencil3d7_f64(double *restrict out, const double *restrict in, long nz, long ny, long nx) {
    long plane = ny * nx;
    for (long z = 1; z < nz - 1; z++)
        for (long y = 1; y < ny - 1; y++)
            for (long x = 1; x < nx - 1; x++) {
                long c = z * plane + y * nx + x;
                out[c] = 0.4 * in[c] + 0.1 * (in[c - 1] + in[c + 1] + in[c - nx] + in[c + nx] +
                                              in[c - plane] + in[c + plane]);
            }
}

/* In-place Gauss-Seidel sweep along a row: each point uses the new left neighbour. */
void gauss_seidel1d_f64(double *x, const double *restrict b, long n) {
    for (long i = 1; i < n - 1; i++)
        x[i] = 0.5 * (x[i - 1] + x[i + 1]) + b[i];
}

void blur_u8(unsigned char *restrict out, const unsigned char *restrict in, long n) {
    for (long i = 1; i < n - 1; i++)
        out[i] = (unsigned char)((in[i - 1] + 2 * in[i] + in[i + 1]) >> 2);
}
