/* Log-linear histogram (see hist.h). */
#include "base/hist.h"

#include <math.h>

static unsigned bucket_of(uint64_t v) {
    if (v < HIST_EXACT) return (unsigned)v;
    unsigned msb = 63u - (unsigned)__builtin_clzll(v); /* >= 6 */
    unsigned sub = (unsigned)(v >> (msb - 4)) & (HIST_SUB - 1);
    return HIST_EXACT + (msb - 6) * HIST_SUB + sub;
}

static uint64_t bucket_low(unsigned b) {
    if (b < HIST_EXACT) return b;
    unsigned msb = (b - HIST_EXACT) / HIST_SUB + 6, sub = (b - HIST_EXACT) % HIST_SUB;
    return ((uint64_t)(HIST_SUB + sub)) << (msb - 4);
}

uint64_t ws_hist_bucket_low(unsigned b) {
    return bucket_low(b);
}

void ws_hist_add(struct ws_hist *h, uint64_t v) {
    if (h->count == 0 || v < h->min) h->min = v;
    if (v > h->max) h->max = v;
    h->count++;
    h->sum += v;
    h->bucket[bucket_of(v)]++;
}

void ws_hist_merge(struct ws_hist *into, const struct ws_hist *from) {
    if (!from->count) return;
    if (into->count == 0 || from->min < into->min) into->min = from->min;
    if (from->max > into->max) into->max = from->max;
    into->count += from->count;
    into->sum += from->sum;
    for (unsigned i = 0; i < HIST_BUCKETS; i++) into->bucket[i] += from->bucket[i];
}

double ws_hist_mean(const struct ws_hist *h) {
    return h->count ? (double)h->sum / (double)h->count : 0.0;
}

uint64_t ws_hist_percentile(const struct ws_hist *h, double p) {
    if (!h->count) return 0;
    if (p <= 0) return h->min;
    if (p >= 100) return h->max;
    /* nearest-rank definition: the smallest value with at least p% of samples at or below it */
    uint64_t rank = (uint64_t)ceil(p / 100.0 * (double)h->count);
    if (rank == 0) rank = 1;
    uint64_t seen = 0;
    for (unsigned b = 0; b < HIST_BUCKETS; b++) {
        seen += h->bucket[b];
        if (seen >= rank) {
            uint64_t lo = bucket_low(b);
            return lo < h->min ? h->min : (lo > h->max ? h->max : lo);
        }
    }
    return h->max;
}
