/* gemv_data.c: ch08_gemv's data: the weight pool (random bf16, at least GEMV_ROTATE_L2 x L2), the tokens, the CPU reference in double. */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>

#include "ch08/bf16.h"
#include "gemv_bench.h"

static uint64_t rng = 0x243F6A8885A308D3ull;

static uint64_t rng_next(void) { return bench_xorshift64(&rng); }

/* Random bf16 with magnitudes in [2^-8, 1) and random signs: a few bit
 * operations each, so that a gigabyte fills in a second. */
static void fill_bf16(uint16_t *p, size_t n)
{
    size_t i = 0;
    while (i < n) {
        uint64_t r = rng_next();
        for (int j = 0; j < 4 && i < n; ++j, ++i, r >>= 16) {
            uint32_t bits = (uint32_t)(r & 0xFFFF);
            uint32_t exp = 119u + (bits >> 8) % 8u, mant = bits & 0x7Fu, sign = (bits >> 7) & 1u;
            p[i] = (uint16_t)(sign << 15 | exp << 7 | mant);
        }
    }
}

/* The CPU reference for 8 tokens: y[b][m] in double, and the sum of |terms|. */
typedef struct ref_job {
    const uint16_t *W, *x;
    int M, K, m0, m1;
    double *ref, *mag;
} ref_job;

static void *ref_rows(void *arg)
{
    ref_job *j = arg;
    float *xf = malloc((size_t)8 * j->K * sizeof(float));
    for (size_t i = 0; i < (size_t)8 * j->K; ++i)
        xf[i] = bf16_to_f32(j->x[i]);
    for (int m = j->m0; m < j->m1; ++m) {
        double s[8] = {0}, a[8] = {0};
        const uint16_t *w = j->W + (size_t)m * j->K;
        for (int k = 0; k < j->K; ++k) {
            double wk = (double)bf16_to_f32(w[k]);
            for (int b = 0; b < 8; ++b) {
                double t = wk * (double)xf[(size_t)b * j->K + k];
                s[b] += t;
                a[b] += fabs(t);
            }
        }
        for (int b = 0; b < 8; ++b) {
            j->ref[(size_t)b * j->M + m] = s[b];
            j->mag[(size_t)b * j->M + m] = a[b];
        }
    }
    free(xf);
    return NULL;
}

/* The CPU reference for 8 tokens of x against the M x K weights W: ref and mag [8][M]. */
void gemv_reference(const uint16_t *W, const uint16_t *x, int M, int K, double *ref, double *mag)
{
    enum { THREADS = 16 };
    pthread_t t[THREADS];
    ref_job jobs[THREADS];
    int n = M < THREADS ? M : THREADS, joined[THREADS];
    for (int i = 0; i < n; ++i) {
        jobs[i] = (ref_job){W, x, M, K, (int)((long long)M * i / n), (int)((long long)M * (i + 1) / n), ref, mag};
        joined[i] = pthread_create(&t[i], NULL, ref_rows, &jobs[i]) == 0;
        if (!joined[i])
            ref_rows(&jobs[i]);     /* no thread: do it here */
    }
    for (int i = 0; i < n; ++i)
        if (joined[i])
            pthread_join(t[i], NULL);
}

/* The sum modulo 2^32 of the 32-bit words of host bytes [0, bytes) of the
 * pool (remembered for the last size asked: a gigabyte takes a while). */
uint32_t gemv_pool_word_sum(const ctx *c, size_t bytes)
{
    static size_t last_bytes;
    static uint32_t last_sum;
    if (bytes == last_bytes && bytes)
        return last_sum;
    const uint32_t *w = (const uint32_t *)c->host_pool;
    uint32_t s = 0;
    for (size_t i = 0; i < bytes / 4; ++i)
        s += w[i];
    last_bytes = bytes;
    last_sum = s;
    return s;
}

/* Fills the weight pool and the tokens, allocates the device buffers and copies the pool: 1 when done. */
int gemv_setup(ctx *c, const shape *shapes, int nshapes)
{
    size_t biggest = 0;
    int kmax = 0;
    for (int i = 0; i < nshapes; ++i) {
        size_t bytes = (size_t)shapes[i].M * shapes[i].K * 2;
        biggest = bytes > biggest ? bytes : biggest;
        kmax = shapes[i].K > kmax ? shapes[i].K : kmax;
    }
    c->ws_floats = c->dry ? (size_t)1 << 18 : GEMV_WS_FLOATS;
    size_t rot = (size_t)GEMV_ROTATE_L2 * c->l2 + biggest;
    c->pool_bytes = c->dry ? biggest * 3 : (rot > biggest ? rot : biggest);
    c->pool_bytes = (c->pool_bytes + 4095) / 4096 * 4096;
    c->host_pool = malloc(c->pool_bytes);
    c->host_x = malloc((size_t)8 * kmax * 2);
    if (!c->host_pool || !c->host_x) {
        bench_fail(c->b, "host memory for a %.2f GB weight pool", c->pool_bytes / 1e9);
        return 0;
    }
    fill_bf16(c->host_pool, c->pool_bytes / 2);
    fill_bf16(c->host_x, (size_t)8 * kmax);
    size_t ymax = 0;
    for (int i = 0; i < nshapes; ++i)
        ymax = (size_t)8 * shapes[i].M > ymax ? (size_t)8 * shapes[i].M : ymax;
    if (dsm_malloc(&c->pool, c->pool_bytes) != dsmSuccess || dsm_malloc(&c->dx, (size_t)8 * kmax * 2) != dsmSuccess ||
        dsm_malloc(&c->dy, ymax * 4) != dsmSuccess ||
        dsm_malloc(&c->dws, c->ws_floats * 4) != dsmSuccess ||
        dsm_malloc(&c->dout, (size_t)c->sms * 16 * 4 + 1024) != dsmSuccess) {
        bench_fail(c->b, "device memory for a %.2f GB weight pool", c->pool_bytes / 1e9);
        return 0;
    }
    dsm_memcpy_to_device(c->pool, c->host_pool, c->pool_bytes);
    return dsm_device_synchronize() == dsmSuccess;   /* landed before any kernel of the run's stream reads it */
}

/* GEMV_SHAPES, GEMV_VARIANTS, GEMV_NB (comma-separated names or token counts): run only those, e.g. to profile one shape with ncu (tools/gpu/ch08_gemv.sh); GEMV_CONFIG=split:rows:threads:unroll: only that point of each sweep. Unset: everything. */
int gemv_selected(const char *env, const char *name)
{
    const char *list = getenv(env);
    if (list == NULL || *list == '\0')
        return 1;
    size_t n = strlen(name);
    for (const char *q = list; *q;) {
        const char *end = strchr(q, ',');
        size_t len = end ? (size_t)(end - q) : strlen(q);
        if (len == n && strncmp(q, name, n) == 0)
            return 1;
        if (!end)
            break;
        q = end + 1;
    }
    return 0;
}
