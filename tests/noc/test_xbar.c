/* Tests of the crossbar (src/noc/xbar.c): exact single-packet latency, round-robin sharing of an
 * output, back-pressure without loss, input-queue limits, conservation and order under random
 * traffic (also when ticked only at xbar_next_event), iSLIP against round-robin matching and
 * head-of-line blocking, next_event in idle and blocked states, and configuration errors. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "noc/xbar.h"
#include "testutil.h"

static struct xbar *mk(const char *ini, uint32_t n_in, uint32_t n_out) {
    struct cfg *c = tu_cfg(ini);
    struct xbar_cfg xc;
    struct ws_err e = {{0}};
    if (xbar_cfg_configure(&xc, c, &e) != 0 || cfg_check_unclaimed(c, &e) != 0) {
        fprintf(stderr, "%s\n", e.msg);
        fail();
    }
    cfg_destroy(c);
    struct xbar *x = xbar_create(&xc, n_in, n_out, "test", &e);
    if (!x) fprintf(stderr, "%s\n", e.msg);
    assert_non_null(x);
    return x;
}

/* Packet identity: (input << 16) | sequence, carried as the opaque pointer (offset by 1 so that
 * it is never NULL). */
static void *tag(uint32_t in, uint32_t seq) {
    return (void *)(uintptr_t)(((in << 16) | seq) + 1);
}
static uint32_t tag_in(void *p) {
    return (uint32_t)(((uintptr_t)p - 1) >> 16);
}
static uint32_t tag_seq(void *p) {
    return (uint32_t)(((uintptr_t)p - 1) & 0xffff);
}

/* A packet of n flits pushed at t before the tick of t, alone: it crosses at t .. t+n-1 and is
 * complete after the tick of t + n - 1 + latency. Ticked only at next_event, that takes n ticks
 * for the crossing plus one for the arrival when latency > 0. */
static void test_single_packet_latency(void **state) {
    (void)state;
    static const int lats[] = {0, 1, 8};
    static const uint32_t bytes[] = {0, 1, 32, 33, 136};
    for (unsigned li = 0; li < 3; li++) {
        for (unsigned bi = 0; bi < 5; bi++) {
            char ini[128];
            snprintf(ini, sizeof ini, "[noc]\nflit = 32\nlatency = %d\n", lats[li]);
            struct xbar *x = mk(ini, 2, 3);
            uint32_t n = xbar_flits(x, bytes[bi]);
            assert_int_equal(n, bytes[bi] == 0 ? 1 : (bytes[bi] + 31) / 32);
            uint64_t t0 = 100, ready = t0 + n - 1 + (uint64_t)lats[li];
            assert_int_equal(xbar_next_event(x), UINT64_MAX);
            assert_true(xbar_can_push(x, 1, bytes[bi]));
            xbar_push(x, 1, 2, tag(1, 0), bytes[bi], t0);
            assert_false(xbar_idle(x));
            assert_int_equal(xbar_next_event(x), t0);
            unsigned ticks = 0;
            uint64_t t;
            while ((t = xbar_next_event(x)) != UINT64_MAX) {
                assert_null(xbar_peek(x, 2));
                xbar_tick(x, t);
                ticks++;
                if (t == t0) assert_int_equal(xbar_in_flits(x, 1), n - 1);
                if (t < t0 + n - 1) assert_int_equal(xbar_next_event(x), t + 1);
            }
            assert_int_equal(t, UINT64_MAX);
            assert_int_equal(ticks, n + (lats[li] > 0));
            assert_int_equal(xbar_stats(x)->cycles, ready + 1);
            assert_int_equal(xbar_ready_first(x), 2);
            assert_int_equal(xbar_ready_next(x, 2), -1);
            assert_ptr_equal(xbar_pop(x, 2, ready), tag(1, 0));
            assert_true(xbar_idle(x));
            assert_int_equal(xbar_ready_first(x), -1);
            const struct xbar_stats *st = xbar_stats(x);
            assert_int_equal(st->lat.count, 1);
            assert_int_equal(st->lat.min, n - 1 + (uint64_t)lats[li]);
            assert_int_equal(st->flits, n);
            assert_int_equal(st->bytes, bytes[bi]);

            /* pushed after the tick of its cycle: one cycle more */
            uint64_t t1 = 200;
            xbar_tick(x, t1);
            xbar_push(x, 0, 0, tag(0, 0), bytes[bi], t1);
            assert_int_equal(xbar_next_event(x), t1 + 1);
            for (t = t1 + 1; !xbar_peek(x, 0); t++) xbar_tick(x, t);
            assert_int_equal(t - 1, t1 + n + (uint64_t)lats[li]);
            xbar_destroy(x);
        }
    }
}

/* Drains every complete packet at every output, logging (cycle, output, packet). */
struct log {
    uint64_t t[4096];
    uint32_t out[4096];
    void *p[4096];
    unsigned n;
};
static unsigned pop_all(struct xbar *x, uint64_t now, struct log *lg) {
    unsigned k = 0;
    for (int64_t o = xbar_ready_first(x); o >= 0; o = xbar_ready_next(x, (uint32_t)o)) {
        void *p;
        while ((p = xbar_pop(x, (uint32_t)o, now))) {
            if (lg) {
                assert_true(lg->n < 4096);
                lg->t[lg->n] = now;
                lg->out[lg->n] = (uint32_t)o;
                lg->p[lg->n++] = p;
            }
            k++;
        }
    }
    return k;
}

/* Three inputs share output 0 with 2-flit packets, latency 2: the output's pointer moves past
 * each granted input, so packets alternate 0, 1, 2, 0, 1, 2 and complete every 2 cycles at
 * 2k + 1 + 2. Then an input arriving while another streams gets the very next grant. */
static void test_round_robin_shares_output(void **state) {
    (void)state;
    static const char *const modes[] = {"rr", "islip"};
    for (int m = 0; m < 2; m++) {
        char ini[128];
        snprintf(ini, sizeof ini, "[noc]\nflit = 32\nlatency = 2\nalloc = %s\n", modes[m]);
        struct xbar *x = mk(ini, 3, 2);
        for (uint32_t i = 0; i < 3; i++)
            for (uint32_t s = 0; s < 2; s++) xbar_push(x, i, 0, tag(i, s), 64, 0);
        struct log lg = {0};
        for (uint64_t t = 0; t < 40; t++) {
            xbar_tick(x, t);
            pop_all(x, t, &lg);
        }
        assert_int_equal(lg.n, 6);
        static const uint32_t ins[] = {0, 1, 2, 0, 1, 2};
        for (unsigned k = 0; k < 6; k++) {
            assert_int_equal(tag_in(lg.p[k]), ins[k]);
            assert_int_equal(tag_seq(lg.p[k]), k / 3);
            assert_int_equal(lg.t[k], 2 * k + 1 + 2);
        }
        xbar_destroy(x);

        /* in 0 streams three packets; in 1 arrives at cycle 1 and is served second */
        x = mk(ini, 2, 1);
        for (uint32_t s = 0; s < 3; s++) xbar_push(x, 0, 0, tag(0, s), 64, 0);
        memset(&lg, 0, sizeof lg);
        for (uint64_t t = 0; t < 40; t++) {
            if (t == 1) xbar_push(x, 1, 0, tag(1, 0), 64, 1);
            xbar_tick(x, t);
            pop_all(x, t, &lg);
        }
        assert_int_equal(lg.n, 4);
        static const uint32_t ins2[] = {0, 1, 0, 0}, seq2[] = {0, 0, 1, 2};
        for (unsigned k = 0; k < 4; k++) {
            assert_int_equal(tag_in(lg.p[k]), ins2[k]);
            assert_int_equal(tag_seq(lg.p[k]), seq2[k]);
            assert_int_equal(lg.t[k], 2 * k + 1 + 2);
        }
        xbar_destroy(x);
    }
}

/* Four inputs push ten 3-flit packets each to output 0 (queue of 4 flits, latency 3) whose
 * consumer takes one packet every 7 cycles. Nothing is lost or reordered per input, the output
 * never holds more than 4 flits (in flight included) and reaches 4, the packet behind a
 * complete one waits with its first flit for room, and the consumer is never starved: after a pop
 * at 7k the waiting packet completes by 7k + 2 + 3, so pops happen exactly at 7, 14, ..., 280. */
static void test_backpressure_no_loss(void **state) {
    (void)state;
    struct xbar *x = mk("[noc]\nflit = 32\nlatency = 3\nin_q = 8\nout_q = 4\n", 4, 2);
    uint32_t next_push[4] = {0}, next_pop[4] = {0};
    unsigned popped = 0;
    bool was_full = false;
    uint64_t t, last_pop = 0;
    for (t = 0; popped < 40; t++) {
        assert_true(t < 1000);
        for (uint32_t i = 0; i < 4; i++) {
            while (next_push[i] < 10 && xbar_can_push(x, i, 96)) {
                xbar_push(x, i, 0, tag(i, next_push[i]), 96, t);
                next_push[i]++;
            }
        }
        xbar_tick(x, t);
        assert_true(xbar_out_flits(x, 0) <= 4);
        if (xbar_out_flits(x, 0) == 4) was_full = true;
        for (uint32_t i = 0; i < 4; i++) assert_true(xbar_in_flits(x, i) <= 8);
        if (t % 7 == 0 && xbar_peek(x, 0)) {
            void *p = xbar_pop(x, 0, t);
            uint32_t in = tag_in(p);
            assert_int_equal(tag_seq(p), next_pop[in]);
            next_pop[in]++;
            popped++;
            last_pop = t;
        }
    }
    assert_int_equal(last_pop, 280);
    for (uint32_t i = 0; i < 4; i++) assert_int_equal(next_pop[i], 10);
    assert_true(was_full);
    assert_true(xbar_idle(x));
    const struct xbar_stats *st = xbar_stats(x);
    assert_int_equal(st->packets, 40);
    assert_int_equal(st->flits, 120);
    assert_true(st->push_stalls > 0);
    assert_true(st->out_blocked > 0);
    xbar_destroy(x);
}

/* Input room is counted in flits and freed flit by flit as the packet crosses; a packet larger
 * than the input queue can never be pushed. */
static void test_input_queue_full(void **state) {
    (void)state;
    struct xbar *x = mk("[noc]\nflit = 32\nin_q = 8\n", 2, 1);
    assert_int_equal(xbar_flits(x, 96), 3);
    assert_true(xbar_can_push(x, 0, 96));
    xbar_push(x, 0, 0, tag(0, 0), 96, 0);
    assert_true(xbar_can_push(x, 0, 96));
    xbar_push(x, 0, 0, tag(0, 1), 96, 0);
    assert_int_equal(xbar_in_flits(x, 0), 6);
    assert_false(xbar_can_push(x, 0, 96));
    assert_int_equal(xbar_stats(x)->push_stalls, 1);
    assert_true(xbar_can_push(x, 0, 64));
    assert_false(xbar_can_push(x, 1, 288)); /* 9 flits: never */
    assert_int_equal(xbar_stats(x)->push_stalls, 2);
    xbar_tick(x, 0);
    assert_int_equal(xbar_in_flits(x, 0), 5);
    assert_true(xbar_can_push(x, 0, 96));
    xbar_destroy(x);
}

/* Random traffic on 6 x 5 ports with 1..5-flit packets and a consumer that pops at random. */
struct traffic {
    uint64_t pushed, flits, bytes;
    uint32_t seq[6];
    uint32_t last_seq[6][5]; /* per (input, output): last sequence popped + 1 */
    uint32_t popped_seq[6][5];
    struct log lg;
    unsigned ticks;
    uint64_t out_blocked;
};

static void run_random(const char *ini, bool event_driven, uint64_t seed, struct traffic *tr) {
    struct xbar *x = mk(ini, 6, 5);
    struct ws_rng r;
    ws_rng_seed(&r, seed);
    memset(tr, 0, sizeof *tr);
    static uint32_t dest[6][4096];
    uint64_t t;
    bool popped_prev = false;
    for (t = 0; t < 20000; t++) {
        if (t < 1500) {
            for (uint32_t i = 0; i < 6; i++) {
                uint64_t go = ws_rng_below(&r, 100), o = ws_rng_below(&r, 5);
                uint32_t b = 1 + (uint32_t)ws_rng_below(&r, 160);
                if (go < 40 && xbar_can_push(x, i, b)) {
                    dest[i][tr->seq[i]] = (uint32_t)o;
                    xbar_push(x, i, (uint32_t)o, tag(i, tr->seq[i]++), b, t);
                    tr->pushed++;
                    tr->flits += xbar_flits(x, b);
                    tr->bytes += b;
                }
            }
        } else if (xbar_idle(x)) {
            break;
        }
        uint64_t ne = xbar_next_event(x);
        /* no event was skipped (a pop after the previous cycle's tick slot may ask for it) */
        if (event_driven) assert_true(ne >= t || (popped_prev && ne == t - 1));
        popped_prev = false;
        if (!event_driven || ne <= t) {
            uint32_t in0[6], out0[5];
            for (uint32_t i = 0; i < 6; i++) in0[i] = xbar_in_flits(x, i);
            for (uint32_t o = 0; o < 5; o++) out0[o] = xbar_out_flits(x, o);
            xbar_tick(x, t);
            tr->ticks++;
            /* one flit per input and per output per cycle, queues within capacity */
            for (uint32_t i = 0; i < 6; i++) assert_true(in0[i] - xbar_in_flits(x, i) <= 1);
            for (uint32_t o = 0; o < 5; o++) {
                assert_true(xbar_out_flits(x, o) - out0[o] <= 1);
                assert_true(xbar_out_flits(x, o) <= 6);
            }
        }
        for (uint32_t o = 0; o < 5; o++) {
            if (ws_rng_below(&r, 100) >= 50) continue;
            void *p = xbar_pop(x, o, t);
            if (!p) continue;
            popped_prev = true;
            uint32_t in = tag_in(p), s = tag_seq(p);
            assert_int_equal(dest[in][s], o);
            /* per (input, output) order */
            assert_true(s + 1 > tr->last_seq[in][o]);
            tr->last_seq[in][o] = s + 1;
            tr->popped_seq[in][o]++;
            struct log *lg = &tr->lg;
            if (lg->n < 4096) {
                lg->t[lg->n] = t;
                lg->out[lg->n] = o;
                lg->p[lg->n++] = p;
            }
        }
    }
    assert_true(xbar_idle(x));
    assert_int_equal(xbar_next_event(x), UINT64_MAX);
    xbar_finish(x, t);
    const struct xbar_stats *st = xbar_stats(x);
    tr->out_blocked = st->out_blocked;
    assert_int_equal(st->packets, tr->pushed);
    assert_int_equal(st->flits, tr->flits);
    assert_int_equal(st->bytes, tr->bytes);
    assert_int_equal(st->lat.count, tr->pushed);
    assert_true(st->flits_per_cycle > 0.0);
    uint64_t sum = 0;
    for (uint32_t i = 0; i < 6; i++)
        for (uint32_t o = 0; o < 5; o++) sum += tr->popped_seq[i][o];
    assert_int_equal(sum, tr->pushed);
    xbar_destroy(x);
}

/* Every packet arrives exactly once, in order per (input, output), with one flit per port per
 * cycle; ticking only at xbar_next_event gives the same pops at the same cycles with fewer
 * ticks, and the same count of cycles flits waited for output room. Without VOQs, rr and islip
 * match identically. */
static void test_random_conservation(void **state) {
    (void)state;
    static const char *const inis[] = {
        "[noc]\nflit = 32\nlatency = 4\nin_q = 12\nout_q = 6\nalloc = rr\n",
        "[noc]\nflit = 32\nlatency = 4\nin_q = 12\nout_q = 6\nalloc = islip\n",
        "[noc]\nflit = 32\nlatency = 4\nin_q = 12\nout_q = 6\nalloc = rr\nvoq = true\n",
        ("[noc]\nflit = 32\nlatency = 4\nin_q = 12\nout_q = 6\nalloc = islip\nvoq = true\n"
         "islip_iters = 3\n"),
        "[noc]\nflit = 32\nlatency = 0\nin_q = 5\nout_q = 5\nalloc = islip\nvoq = true\n",
    };
    static struct traffic a, b;
    struct traffic *fifo_rr = malloc(sizeof *fifo_rr);
    assert_non_null(fifo_rr);
    for (unsigned k = 0; k < 5; k++) {
        run_random(inis[k], false, 7 + k / 2, &a);
        run_random(inis[k], true, 7 + k / 2, &b);
        assert_true(a.pushed > 1000);
        assert_int_equal(a.pushed, b.pushed);
        assert_int_equal(a.lg.n, b.lg.n);
        assert_memory_equal(a.lg.t, b.lg.t, a.lg.n * sizeof a.lg.t[0]);
        assert_memory_equal(a.lg.out, b.lg.out, a.lg.n * sizeof a.lg.out[0]);
        assert_memory_equal(a.lg.p, b.lg.p, a.lg.n * sizeof a.lg.p[0]);
        assert_true(b.ticks < a.ticks);
        /* the cycles it did not tick blocked the same held, full outputs */
        assert_true(a.out_blocked > 0);
        assert_int_equal(a.out_blocked, b.out_blocked);
        if (k == 0) *fifo_rr = a;
        if (k == 1) {
            /* same seed (7): without VOQs both allocators make the same matches */
            assert_int_equal(a.lg.n, fifo_rr->lg.n);
            assert_memory_equal(a.lg.t, fifo_rr->lg.t, a.lg.n * sizeof a.lg.t[0]);
            assert_memory_equal(a.lg.p, fifo_rr->lg.p, a.lg.n * sizeof a.lg.p[0]);
        }
    }
    free(fifo_rr);
}

/* 2 x 2, every input holding 8 one-flit packets for each output (VOQs), latency 0: the number of
 * packets crossing in each cycle. Round-robin matching moves both grant pointers together, so
 * both outputs keep granting the same input: 1 per cycle for 32 cycles. iSLIP moves a pointer
 * only when its grant is accepted: 1 in cycle 0, then the pointers are desynchronised and 2 per
 * cycle follow (done at cycle 16); with 2 iterations the second iteration fills cycle 0 too. */
static void saturate_2x2(const char *ini, const unsigned *expect, unsigned ncycles) {
    struct xbar *x = mk(ini, 2, 2);
    uint32_t seq[2] = {0};
    for (uint32_t k = 0; k < 8; k++)
        for (uint32_t i = 0; i < 2; i++)
            for (uint32_t o = 0; o < 2; o++) xbar_push(x, i, o, tag(i, seq[i]++), 32, 0);
    unsigned t;
    for (t = 0; !xbar_idle(x); t++) {
        assert_true(t < ncycles);
        xbar_tick(x, t);
        assert_int_equal(pop_all(x, t, NULL), expect[t]);
    }
    assert_int_equal(t, ncycles);
    xbar_destroy(x);
}

static void test_islip_vs_rr_matching(void **state) {
    (void)state;
    unsigned e[32];
    const char *base = "[noc]\nflit = 32\nlatency = 0\nin_q = 16\nout_q = 4\nvoq = true\n";
    char ini[256];
    for (unsigned t = 0; t < 32; t++) e[t] = 1;
    snprintf(ini, sizeof ini, "%salloc = rr\n", base);
    saturate_2x2(ini, e, 32);
    e[0] = 1;
    for (unsigned t = 1; t < 16; t++) e[t] = 2;
    e[16] = 1;
    snprintf(ini, sizeof ini, "%salloc = islip\n", base);
    saturate_2x2(ini, e, 17);
    for (unsigned t = 0; t < 16; t++) e[t] = 2;
    snprintf(ini, sizeof ini, "%salloc = islip\nislip_iters = 2\n", base);
    saturate_2x2(ini, e, 16);

    /* one input alone with two packets for each output: both outputs grant it every cycle and
     * its accept pointer alternates them: outputs 0, 1, 0, 1 (not 0, 0, 1, 1) */
    static const char *const allocs[] = {"rr", "islip"};
    for (unsigned m = 0; m < 2; m++) {
        snprintf(ini, sizeof ini, "%salloc = %s\n", base, allocs[m]);
        struct xbar *x = mk(ini, 2, 2);
        for (uint32_t k = 0; k < 4; k++) xbar_push(x, 0, k / 2, tag(0, k), 32, 0);
        static const uint32_t outs[] = {0, 1, 0, 1}, seqs[] = {0, 2, 1, 3};
        for (unsigned t = 0; t < 4; t++) {
            xbar_tick(x, t);
            int64_t o = xbar_ready_first(x);
            assert_int_equal(o, outs[t]);
            assert_int_equal(xbar_ready_next(x, (uint32_t)o), -1);
            assert_ptr_equal(xbar_pop(x, (uint32_t)o, t), tag(0, seqs[t]));
        }
        assert_true(xbar_idle(x));
        xbar_destroy(x);
    }
}

/* 3 x 3 saturated (3 one-flit packets per VOQ), iSLIP with 2 iterations: which input each
 * output serves per cycle ('.' none). Cycle 0: all grant in 0, which accepts out 0 (pointers:
 * out 0 -> 1, in 0 -> 1); iteration 2 matches in 1 - out 1 without moving pointers. Cycle 1:
 * out 0 grants in 1, outs 1 and 2 grant in 0, which accepts out 1; iteration 2 adds in 2 - out 2.
 * From cycle 2 the grant pointers are all different and rotate: 210, 021, 102, ... Moving
 * pointers in the second iteration too would give 120 in cycle 1. */
static void test_islip_second_iteration(void **state) {
    (void)state;
    struct xbar *x = mk("[noc]\nflit = 32\nlatency = 0\nin_q = 16\nout_q = 4\nvoq = true\n"
                        "alloc = islip\nislip_iters = 2\n",
                        3, 3);
    uint32_t seq[3] = {0};
    for (uint32_t k = 0; k < 3; k++)
        for (uint32_t i = 0; i < 3; i++)
            for (uint32_t o = 0; o < 3; o++) xbar_push(x, i, o, tag(i, seq[i]++), 32, 0);
    static const char *const expect[] = {"01.", "102", "210", "021", "102",
                                         "210", "021", "102", "2.0", ".21"};
    unsigned t;
    for (t = 0; !xbar_idle(x); t++) {
        assert_true(t < 10);
        xbar_tick(x, t);
        char got[4] = "...";
        for (uint32_t o = 0; o < 3; o++) {
            void *p = xbar_pop(x, o, t);
            if (p) got[o] = (char)('0' + tag_in(p));
        }
        assert_string_equal(got, expect[t]);
    }
    assert_int_equal(t, 10);
    xbar_destroy(x);
}

/* 4 x 4 uniform saturated load (every input has 16 one-flit packets for every output, VOQs),
 * latency 0, packets crossing per cycle. Single-iteration iSLIP separates one more grant pointer
 * each cycle (1, 2, 3 matches), then runs a conflict-free rotation at 4 per cycle and drains
 * symmetrically (3, 2, 1): 67 cycles for 256 packets. Round-robin matching keeps all four
 * pointers together on the same input: 1 per cycle, 256 cycles. */
static void uniform_4x4(const char *alloc, const unsigned *expect, unsigned ncycles) {
    char ini[256];
    snprintf(ini, sizeof ini,
             "[noc]\nflit = 32\nlatency = 0\nin_q = 64\nout_q = 4\nvoq = true\nalloc = %s\n",
             alloc);
    struct xbar *x = mk(ini, 4, 4);
    uint32_t seq[4] = {0};
    for (uint32_t k = 0; k < 16; k++)
        for (uint32_t i = 0; i < 4; i++)
            for (uint32_t o = 0; o < 4; o++) xbar_push(x, i, o, tag(i, seq[i]++), 32, 0);
    unsigned t;
    for (t = 0; !xbar_idle(x); t++) {
        assert_true(t < ncycles);
        xbar_tick(x, t);
        assert_int_equal(pop_all(x, t, NULL), expect[t]);
    }
    assert_int_equal(t, ncycles);
    xbar_destroy(x);
}

static void test_islip_uniform_full_throughput(void **state) {
    (void)state;
    unsigned e[256];
    for (unsigned t = 0; t < 67; t++) e[t] = 4;
    e[0] = e[66] = 1;
    e[1] = e[65] = 2;
    e[2] = e[64] = 3;
    uniform_4x4("islip", e, 67);
    for (unsigned t = 0; t < 256; t++) e[t] = 1;
    uniform_4x4("rr", e, 256);
}

/* Input i sends five 4-flit packets to output (i + 1) % 4: no conflicts, so every output moves
 * a flit every cycle and packet k of each input completes at 4k + 3 + latency. */
static void test_permutation_full_throughput(void **state) {
    (void)state;
    static const char *const inis[] = {
        "[noc]\nflit = 32\nlatency = 8\nalloc = rr\n",
        "[noc]\nflit = 32\nlatency = 8\nalloc = islip\nvoq = true\n",
    };
    for (unsigned m = 0; m < 2; m++) {
        struct xbar *x = mk(inis[m], 4, 4);
        for (uint32_t k = 0; k < 5; k++)
            for (uint32_t i = 0; i < 4; i++) xbar_push(x, i, (i + 1) % 4, tag(i, k), 128, 0);
        struct log lg = {0};
        for (uint64_t t = 0; !xbar_idle(x); t++) {
            xbar_tick(x, t);
            pop_all(x, t, &lg);
        }
        assert_int_equal(lg.n, 20);
        for (unsigned n = 0; n < 20; n++) {
            uint32_t i = tag_in(lg.p[n]), k = tag_seq(lg.p[n]);
            assert_int_equal(lg.out[n], (i + 1) % 4);
            assert_int_equal(lg.t[n], 4 * k + 3 + 8);
        }
        xbar_finish(x, 28);
        const struct xbar_stats *st = xbar_stats(x);
        assert_int_equal(st->cycles, 28);
        assert_int_equal(st->flits, 80);
        assert_true(st->flits_per_cycle == 80.0 / 28.0);
        xbar_destroy(x);
    }
}

/* Output 0 is full and never popped. Input 1 holds three packets for output 0 and then four for
 * output 1. With one FIFO per input the head for output 0 blocks the rest (output 1 gets
 * nothing) and the crossbar reports no next event although packets wait; a pop at output 0
 * makes the next tick move a flit. With VOQs output 1 gets all four. */
static void test_head_of_line_and_next_event(void **state) {
    (void)state;
    for (int voq = 0; voq < 2; voq++) {
        char ini[128];
        snprintf(ini, sizeof ini, "[noc]\nflit = 32\nlatency = 1\nout_q = 2\nvoq = %s\n",
                 voq ? "true" : "false");
        struct xbar *x = mk(ini, 2, 2);
        assert_true(xbar_idle(x));
        assert_int_equal(xbar_next_event(x), UINT64_MAX);
        xbar_tick(x, 0); /* idle tick */
        assert_int_equal(xbar_next_event(x), UINT64_MAX);
        xbar_push(x, 0, 0, tag(0, 0), 32, 1);
        for (uint32_t s = 0; s < 3; s++) xbar_push(x, 1, 0, tag(1, s), 32, 1);
        for (uint32_t s = 3; s < 7; s++) xbar_push(x, 1, 1, tag(1, s), 32, 1);
        assert_int_equal(xbar_next_event(x), 1);
        unsigned got1 = 0;
        uint64_t t;
        for (t = 1; t < 50; t++) {
            xbar_tick(x, t);
            void *p;
            while ((p = xbar_pop(x, 1, t))) {
                assert_int_equal(tag_seq(p), 3 + got1);
                got1++;
            }
        }
        assert_int_equal(got1, voq ? 4 : 0);
        assert_int_equal(xbar_out_flits(x, 0), 2);
        assert_int_equal(xbar_in_flits(x, 1), voq ? 2 : 6);
        assert_false(xbar_idle(x));
        assert_int_equal(xbar_next_event(x), UINT64_MAX);
        assert_true(xbar_stats(x)->out_blocked == 0); /* nothing granted into a full output */
        if (!voq) {
            /* what the watchdog prints */
            char *buf = NULL;
            size_t len = 0;
            FILE *f = open_memstream(&buf, &len);
            assert_non_null(f);
            xbar_dump(x, f);
            fclose(f);
            assert_string_equal(buf, "xbar test: 8 packets (6 not yet crossed), 0 completing, "
                                     "last tick 49\n"
                                     "  in 1: 6/64 flits, head for out 0\n"
                                     "  out 0: 2/2 flits, 2 packets ready\n");
            free(buf);
        }

        /* the two in output 0 came in grant order: input 0, then input 1's first */
        assert_ptr_equal(xbar_pop(x, 0, 60), tag(0, 0));
        assert_int_equal(xbar_next_event(x), 60);
        xbar_tick(x, 60);
        assert_int_equal(xbar_out_flits(x, 0), 2);
        assert_int_equal(xbar_in_flits(x, 1), voq ? 1 : 5);
        assert_int_equal(xbar_next_event(x), 61); /* arrival */
        xbar_tick(x, 61);
        assert_int_equal(xbar_next_event(x), UINT64_MAX);
        /* drain everything */
        for (t = 62; !xbar_idle(x); t++) {
            xbar_tick(x, t);
            pop_all(x, t, NULL);
        }
        assert_int_equal(xbar_stats(x)->packets, 8);
        xbar_destroy(x);
    }
}

static void test_config(void **state) {
    (void)state;
    struct xbar_cfg xc;
    struct ws_err e = {{0}};
    struct cfg *c = tu_cfg("");
    assert_int_equal(xbar_cfg_configure(&xc, c, &e), 0);
    assert_int_equal(xc.flit, 32);
    assert_int_equal(xc.latency, 8);
    assert_int_equal(xc.in_q, 64);
    assert_int_equal(xc.out_q, 64);
    assert_int_equal(xc.alloc, XBAR_RR);
    assert_int_equal(xc.iters, 1);
    assert_false(xc.voq);
    assert_int_equal(xbar_cfg_check_packet(&xc, 136, c, &e), 0);
    cfg_destroy(c);

    static const struct {
        const char *ini, *msg;
    } bad[] = {
        {"[noc]\nflit = 0\n", "test.ini:2: noc.flit = 0 is out of range [1, 4096]"},
        {"[noc]\n\nin_q = 5000\n", "test.ini:3: noc.in_q = 5000 is out of range [1, 4096]"},
        {"[noc]\nout_q = -1\n", "test.ini:2: noc.out_q = -1 is out of range [1, 4096]"},
        {"[noc]\nlatency = -3\n", "test.ini:2: noc.latency = -3 is out of range [0, 100000]"},
        {"[noc]\nalloc = wavefront\n",
         "test.ini:2: noc.alloc = 'wavefront' is not one of: rr, islip"},
        {"[noc]\nislip_iters = 0\n", "test.ini:2: noc.islip_iters = 0 is out of range [1, 64]"},
        {"[noc]\nvoq = perhaps\n", "test.ini:2: noc.voq = 'perhaps' is not a boolean (true/false)"},
    };
    for (unsigned k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        c = tu_cfg(bad[k].ini);
        assert_int_equal(xbar_cfg_configure(&xc, c, &e), -1);
        assert_string_equal(e.msg, bad[k].msg);
        cfg_destroy(c);
    }
    c = tu_cfg("[noc]\nlatncy = 3\n");
    assert_int_equal(xbar_cfg_configure(&xc, c, &e), 0);
    assert_int_equal(cfg_check_unclaimed(c, &e), -1);
    assert_string_equal(e.msg,
                        "test.ini:2: unknown key 'noc.latncy' (did you mean 'noc.latency'?)");
    cfg_destroy(c);

    /* the largest packet (8 B header + 128 B data = 5 flits of 32 B) must fit both queues */
    c = tu_cfg("[noc]\nflit = 32\nin_q = 4\n");
    assert_int_equal(xbar_cfg_configure(&xc, c, &e), 0);
    assert_int_equal(xbar_cfg_check_packet(&xc, 128, c, &e), 0);
    assert_int_equal(xbar_cfg_check_packet(&xc, 136, c, &e), -1);
    assert_string_equal(e.msg, "test.ini:3: noc.in_q = 4 flits cannot hold the largest packet "
                               "(136 B = 5 flits of 32 B)");
    cfg_destroy(c);
    c = tu_cfg("[noc]\nout_q = 2\n");
    assert_int_equal(xbar_cfg_configure(&xc, c, &e), 0);
    assert_int_equal(xbar_cfg_check_packet(&xc, 136, NULL, &e), -1);
    assert_string_equal(e.msg, "noc: noc.out_q = 2 flits cannot hold the largest packet "
                               "(136 B = 5 flits of 32 B)");

    /* bad construction arguments */
    assert_null(xbar_create(&xc, 0, 4, "req", &e));
    assert_string_equal(e.msg, "xbar req: 0 inputs x 4 outputs (each must be 1 .. 65536)");
    xc.flit = 0;
    assert_null(xbar_create(&xc, 2, 4, "req", &e));
    assert_true(strstr(e.msg, "xbar req: bad configuration (flit 0") == e.msg);
    cfg_destroy(c);

    assert_int_equal(stats_desc_check(xbar_stat_desc, xbar_stat_ndesc, &e), 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_single_packet_latency),
        cmocka_unit_test(test_round_robin_shares_output),
        cmocka_unit_test(test_backpressure_no_loss),
        cmocka_unit_test(test_input_queue_full),
        cmocka_unit_test(test_random_conservation),
        cmocka_unit_test(test_islip_vs_rr_matching),
        cmocka_unit_test(test_islip_second_iteration),
        cmocka_unit_test(test_islip_uniform_full_throughput),
        cmocka_unit_test(test_permutation_full_throughput),
        cmocka_unit_test(test_head_of_line_and_next_event),
        cmocka_unit_test(test_config),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
