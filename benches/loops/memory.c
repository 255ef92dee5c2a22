/* Irregular memory: histograms, gather, scatter, pointer chasing (suaca loop benchmark). */

void histogram_u8(unsigned *restrict hist, const unsigned char *restrict data, long n) {
    for (long i = 0; i < n; i++)
        hist[data[i]]++;
}

void histogram_masked(unsigned *restrict hist, const unsigned *restrict keys, long n) {
    for (long i = 0; i < n; i++)
        hist[keys[i] & 1023u] += 1;
}

void gather_f64(double *restrict out, const double *restrict x, const int *restrict idx, long n) {
    for (long i = 0; i < n; i++)
        out[i] = x[idx[i]];
}

void gather_i32(int *restrict out, const int *restrict x, const int *restrict idx, long n) {
    for (long i = 0; i < n; i++)
        out[i] = x[idx[i]];
}

void scatter_f32(float *restrict out, const float *restrict x, const int *restrict idx, long n) {
    for (long i = 0; i < n; i++)
        out[idx[i]] = x[i];
}

/* One row of a CSR sparse matrix-vector product. */
double spmv_row(const double *restrict val, const int *restrict col, const double *restrict x,
                long nnz) {
    double s = 0.0;
    for (long j = 0; j < nnz; j++)
        s += val[j] * x[col[j]];
    return s;
}

struct node {
    struct node *next;
    long value;
};

/* The walk is bounded by a count (the list is at least n long or circular). */
long list_sum(const struct node *p, long n) {
    long s = 0;
    for (long i = 0; i < n; i++) {
        s += p->value;
        p = p->next;
    }
    return s;
}

const struct node *list_advance(const struct node *p, long n) {
    for (long i = 0; i < n; i++)
        p = p->next;
    return p;
}

/* Chasing through an index array (a permutation). */
long index_chase(const int *next, long start, long n) {
    long j = start;
    for (long i = 0; i < n; i++)
        j = next[j];
    return j;
}

/* Branch-free binary search over a sorted array: a fixed number of halvings. */
const int *lower_bound_branchless(const int *base, long n, int key) {
    while (n > 1) {
        long half = n / 2;
        base = base[half - 1] < key ? base + half : base;
        n -= half;
    }
    return base;
}

/* The usual binary search with branches: no single-block loop. */
long binary_search(const int *a, long n, int key) {
    long lo = 0, hi = n;
    while (lo < hi) {
        long mid = lo + (hi - lo) / 2;
        if (a[mid] < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}
