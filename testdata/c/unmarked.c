/* Loops without markers for tests/cli/unmarked_loops.rs (built by testdata/build.sh). */
long sum3(const long *a, long n)
{
    long s = 0;
    for (long i = 0; i < n; i++)
        s += a[i] * 3;
    return s;
}

long until_stop(const long *a, long n, long stop)
{
    long c = 0;
    for (long i = 0; i < n; i++) {
        if (a[i] == stop)
            break;
        c += a[i];
    }
    return c;
}

void clamp(long *a, long n)
{
    for (long i = 0; i < n; i++) {
        if (a[i] > 100)
            a[i] = 100;
        else
            a[i] += 7;
    }
}

long twice(long x)
{
    return x + x;
}
