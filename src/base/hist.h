/* Histogram of non-negative integers with log-linear buckets (exact below 64, then 16 buckets per
 * power of two: relative error < 6.25%), constant memory, O(1) add. Used for latency
 * distributions, from which percentiles and box-plot quartiles are reported. */
#pragma once

#include <stdint.h>

enum { HIST_EXACT = 64, HIST_SUB = 16, HIST_BUCKETS = HIST_EXACT + (64 - 6) * HIST_SUB };

struct ws_hist {
    uint64_t count, sum, min, max;
    uint64_t bucket[HIST_BUCKETS];
};

void ws_hist_add(struct ws_hist *h, uint64_t v);
/* Smallest value that falls in bucket b (the next bucket's low bound ends it). */
uint64_t ws_hist_bucket_low(unsigned b);
void ws_hist_merge(struct ws_hist *into, const struct ws_hist *from);
double ws_hist_mean(const struct ws_hist *h);
/* Value at percentile p in [0, 100] (lower bound of the bucket holding that rank; exact for
 * values < 64 and for p = 0 and p = 100). 0 for an empty histogram. */
uint64_t ws_hist_percentile(const struct ws_hist *h, double p);
