/* Tests of the SM's memory path (src/core/ldst.c through src/core/sm.c) against a fake memory
 * that answers every request after a fixed delay (100 cycles): the exact cycle a load's
 * dependent instruction issues on an L1 miss and on a hit, the fields a request carries,
 * memory occlusion by MSHR exhaustion, store and atomic acknowledgements, shared-memory bank
 * conflicts, L1D banks (requests per cycle, conflicts, reservation failures mid-cycle), the
 * per-warp-load statistics, and conservation of requests under random traffic. */
#include "sm_harness.h"

#include "base/rng.h"

/* LD r1 (L1 miss); INT r2 <- r1; LD r3 (same line: hit); INT r4 <- r3; EXIT.
 * The LD issues at 0 and reaches the L1 at 1; its fetch leaves at 1 and is answered at 101,
 * when r1 is written: the INT issues at 101. The second LD issues at 102, hits at 103 and is
 * back l1d.hit_lat (20) later: its INT issues at 123. */
static void test_load_miss_then_hit(void **state) {
    (void)state;
    struct fake_wl *f = fw_create(32, 1);
    struct inst p[] = {I_LD(1, 0x10000, 4), I_INT(2, 1), I_LD(3, 0x10000, 4), I_INT(4, 3)};
    fw_prog(f, -1, p, 4);
    struct h *h = h_create(NULL, f);
    uint64_t end = h_run(h, 10000);
    static const uint64_t want[] = {0, 101, 102, 123, 124};
    assert_int_equal(h->ntr, 5);
    for (unsigned i = 0; i < 5; i++) assert_int_equal(h->tr[i].now, want[i]);
    assert_int_equal(end, 124);

    assert_int_equal(h->nsent, 1);
    const struct mem_req *r = &h->sent_copy[0];
    assert_int_equal(r->kind, MEM_LOAD);
    assert_false(r->is_write);
    assert_int_equal(r->addr, 0x10000);
    assert_int_equal(r->sectors, 0xf);
    assert_int_equal(r->bytes, 128);
    assert_int_equal(r->src, 0);
    assert_int_equal(r->dst, (0x10000 >> 7) % 4);
    assert_int_equal(r->o.app, 3);
    assert_int_equal(r->o.sm, 0);
    assert_int_equal(r->o.subcore, 0);
    assert_int_equal(r->o.warp_slot, 0);
    assert_int_equal(r->o.gwarp, 0);
    assert_int_equal(r->o.load_id, 0);
    assert_int_equal(r->o.pc, 0x1000);
    assert_int_equal(r->o.nreq, 1);
    assert_int_equal(r->ts[MEM_TS_ISSUE], 0);
    assert_int_equal(r->ts[MEM_TS_L1], 1);

    const struct sm_stats *st = sm_stats(h->s);
    assert_int_equal(st->load_warps, 2);
    assert_int_equal(st->mem_reqs, 2);
    assert_int_equal(st->offchip_per_load.count, 2);
    assert_int_equal(st->offchip_per_load.sum, 4); /* the miss: one line, 4 sectors */
    assert_int_equal(st->lat_div.count, 1);        /* only the warp-load with an off-chip request */
    assert_int_equal(st->lat_div.max, 0);
    assert_int_equal(st->load_time.count, 2);
    assert_int_equal(st->load_time.max, 101);
    assert_int_equal(st->load_time.min, 21);
    assert_int_equal(st->req_turnaround.count, 1);
    assert_int_equal(st->req_turnaround.max, 101);
    assert_int_equal(st->stall_scoreboard, 100 + 20);
    /* two line requests and one fetch, all given back */
    assert_int_equal(h->allocs, 3);
    assert_int_equal(h->frees, 3);
    assert_int_equal(st->reqs_created, 3);
    assert_int_equal(st->reqs_freed, 3);
    const struct cache_stats *cs = cache_stats(sm_l1d(h->s));
    assert_int_equal(cs->access[0][CACHE_MISS], 1);
    assert_int_equal(cs->access[0][CACHE_HIT], 1);
    assert_true(sm_idle(h->s));
    h_destroy(h);
}

/* Off-chip accesses of a warp-load count the sectors DRAM served it, not the sectors it asked
 * for: LD of one word (sector 0 of the line from DRAM), then LD of the whole line, which finds
 * sector 0 in the L1 and waits for 1-3 from DRAM: 1 + 3 sectors, not 1 + 4. */
static void test_offchip_counts_missing_sectors(void **state) {
    (void)state;
    struct fake_wl *f = fw_create(32, 1);
    struct inst p[] = {I_LD(1, 0x10000, 0), I_INT(2, 1), I_LD(3, 0x10000, 4), I_INT(4, 3)};
    fw_prog(f, -1, p, 4);
    struct h *h = h_create(NULL, f);
    h_run(h, 10000);
    assert_int_equal(h->nsent, 2);
    assert_int_equal(h->sent_copy[0].sectors, 0x1);
    assert_int_equal(h->sent_copy[1].sectors, 0xe);
    const struct sm_stats *st = sm_stats(h->s);
    assert_int_equal(st->load_warps, 2);
    assert_int_equal(st->offchip_per_load.count, 2);
    assert_int_equal(st->offchip_per_load.sum, 1 + 3);
    assert_int_equal(st->offchip_per_load.max, 3);
    assert_int_equal(cache_stats(sm_l1d(h->s))->access[0][CACHE_SECTOR_MISS], 1);
    h_destroy(h);
}

/* A fully divergent load (32 lines) with 8 MSHRs: accesses at 1-8 miss, the 9th fails its
 * reservation and blocks the LDST unit until the first fill at 101; then 8 more at 101-108,
 * blocked again at 109 until 201, and so on: the last fetch leaves at 308 and is back at 408,
 * when the dependent instruction issues. */
static void test_divergent_load_occlusion(void **state) {
    (void)state;
    for (int mode = 0; mode < 2; mode++) {
        struct fake_wl *f = fw_create(32, 1);
        struct inst p[] = {I_LD(1, 0x20000, 128), I_INT(2, 1)};
        fw_prog(f, -1, p, 2);
        struct h *h = h_create(NULL, f);
        h->every_cycle = mode;
        h_run(h, 10000);
        assert_int_equal(h_issue(h, 0, 1), 408);
        assert_int_equal(h->nsent, 32);
        for (unsigned i = 0; i < 32; i++) {
            assert_int_equal(h->sent_copy[i].addr, 0x20000 + 128 * (uint64_t)i);
            assert_int_equal(h->sent_copy[i].sectors, 0x1);
            assert_int_equal(h->sent_copy[i].o.nreq, 32);
            assert_int_equal(h->sent_copy[i].ts[MEM_TS_L1], 1 + i % 8 + 100 * (i / 8));
        }
        const struct sm_stats *st = sm_stats(h->s);
        assert_int_equal(st->ldst_resfail_cycles, 3 * 92);
        assert_int_equal(st->offchip_per_load.sum, 32);
        assert_int_equal(st->lat_div.count, 1);
        assert_int_equal(st->lat_div.max, 408 - 101);
        assert_int_equal(st->load_time.max, 408);
        assert_int_equal(st->req_turnaround.count, 32);
        assert_int_equal(st->req_turnaround.min, 101);
        assert_int_equal(st->req_turnaround.max, 408);
        const struct cache_stats *cs = cache_stats(sm_l1d(h->s));
        assert_int_equal(cs->fail[CACHE_FAIL_MSHR], 3);
        assert_int_equal(cs->access[0][CACHE_MISS], 32);
        assert_int_equal(h->allocs, 64);
        assert_int_equal(h->frees, 64);
        h_destroy(h);
    }
}

/* A store goes downstream as itself (write-evict L1) and the CTA is released only when it is
 * acknowledged: ST at 0, EXIT at 1, ack at 101. An atomic's destination is written when its
 * acknowledgement comes back. */
static void test_store_and_atomic(void **state) {
    (void)state;
    struct fake_wl *f = fw_create(32, 1);
    struct inst p[] = {I_MEM(SPACE_GLOBAL, MOP_STORE, 5, 0x30000, 4, 4, 0xffffffffu)};
    fw_prog(f, -1, p, 1);
    struct h *h = h_create(NULL, f);
    uint64_t end = h_run(h, 10000);
    assert_int_equal(end, 101);
    assert_int_equal(h->ntr, 2);
    assert_int_equal(h->nsent, 1);
    assert_int_equal(h->sent_copy[0].kind, MEM_STORE);
    assert_true(h->sent_copy[0].is_write);
    assert_int_equal(h->sent_copy[0].sectors, 0xf);
    assert_int_equal(h->sent_copy[0].bytes, 128);
    const struct sm_stats *st = sm_stats(h->s);
    assert_int_equal(st->cycles_active, 101);
    assert_int_equal(st->load_warps, 0);
    assert_int_equal(h->allocs, 1);
    assert_int_equal(h->frees, 1);
    h_destroy(h);

    f = fw_create(32, 1);
    struct inst q[] = {I_MEM(SPACE_GLOBAL, MOP_ATOMIC, 1, 0x40000, 0, 4, 0xffffffffu), I_INT(2, 1)};
    fw_prog(f, -1, q, 2);
    h = h_create(NULL, f);
    h_run(h, 10000);
    assert_int_equal(h_issue(h, 0, 1), 101);
    assert_int_equal(h->nsent, 1);
    assert_int_equal(h->sent_copy[0].kind, MEM_ATOMIC);
    assert_int_equal(h->sent_copy[0].sectors, 0x1);
    assert_int_equal(sm_stats(h->s)->load_warps, 0);
    h_destroy(h);
}

/* Shared memory: conflict-free at 0 -> processed at 1 -> written 1 + smem_lat (10) = 11; a
 * 2-way conflict issued at 12 holds the unit at 13 and 14 -> written at 24. */
static void test_shared_memory(void **state) {
    (void)state;
    struct fake_wl *f = fw_create(32, 1);
    struct inst p[] = {I_MEM(SPACE_SHARED, MOP_LOAD, 1, 0, 4, 4, 0xffffffffu), I_INT(2, 1),
                       I_MEM(SPACE_SHARED, MOP_LOAD, 3, 0, 8, 4, 0xffffffffu), I_INT(4, 3)};
    fw_prog(f, -1, p, 4);
    struct h *h = h_create(NULL, f);
    h_run(h, 10000);
    static const uint64_t want[] = {0, 11, 12, 24, 25};
    for (unsigned i = 0; i < 5; i++) assert_int_equal(h->tr[i].now, want[i]);
    const struct sm_stats *st = sm_stats(h->s);
    assert_int_equal(st->smem_accesses, 2);
    assert_int_equal(st->smem_conflict_cycles, 1);
    assert_int_equal(st->mem_reqs, 0);
    assert_int_equal(h->nsent, 0);
    h_destroy(h);
}

/* A warp that exits with a load outstanding holds its CTA until the load is back; meanwhile the
 * SM asks to be called only when a reply comes (sm_next_event = UINT64_MAX). */
static void test_exit_waits_for_load_and_next_event(void **state) {
    (void)state;
    struct fake_wl *f = fw_create(32, 1);
    struct inst p[] = {I_LD(1, 0x50000, 4)};
    fw_prog(f, -1, p, 1);
    struct h *h = h_create(NULL, f);
    struct ws_err e = {{0}};
    assert_int_equal(sm_take_cta(h->s, &f->base, &f->k, 0, 0, &e), 0);
    assert_int_equal(sm_next_event(h->s), 0);
    assert_int_equal(sm_cycle(h->s, 0, &e), 0); /* LD issues */
    assert_int_equal(sm_next_event(h->s), 1);
    assert_int_equal(sm_cycle(h->s, 1, &e), 0); /* EXIT issues, the LD reaches the L1 */
    assert_int_equal(h->ntr, 2);
    struct mem_req *r = sm_out_peek(h->s);
    assert_non_null(r);
    /* a request waits for the NoC, which takes it without the SM (the SM sleeps) */
    assert_int_equal(sm_next_event(h->s), UINT64_MAX);
    sm_out_pop(h->s);
    assert_null(sm_out_peek(h->s));
    assert_int_equal(sm_next_event(h->s), UINT64_MAX);
    assert_int_equal(sm_resident_ctas(h->s), 1);
    assert_false(sm_idle(h->s));
    assert_int_equal(sm_take_finished(h->s), 0);
    r->offchip = true;
    r->offchip_sectors = r->sectors;
    sm_reply(h->s, r, 101);
    assert_int_equal(sm_take_finished(h->s), 1);
    assert_int_equal(sm_resident_ctas(h->s), 0);
    assert_true(sm_idle(h->s));
    assert_int_equal(sm_next_event(h->s), UINT64_MAX);
    assert_int_equal(f->nended, 1);
    sm_finish(h->s, 0);
    assert_int_equal(sm_stats(h->s)->cycles_active, 101);
    assert_int_equal(sm_stats(h->s)->load_time.max, 101);
    assert_int_equal(h->allocs, h->frees);
    h_destroy(h);
}

/* ---- L1D banks (core.l1_banks) ---- */

/* Lane i reads base + 160 i: a line of its own, sector (and so bank, of 4) i mod 4. A miss
 * round then a hit round of that load, fully associative L1D with an MSHR per line. Misses:
 * the L1 takes 4 requests a cycle with 4 banks (cycles 1-8, last fetch back at 108, when the
 * dependent INT issues) and 1 with 1 bank (1-32, INT at 132). Hits: the second LD issues the
 * cycle after that INT and reaches the L1 one cycle later; its last hit is made 32 / banks - 1
 * cycles after that and is back l1d.hit_lat later. hit_lat = 4 keeps 16 hits in flight in the
 * 4-bank case (the hit ring is sized for it). */
static void test_l1_banks_throughput(void **state) {
    (void)state;
    for (int banks = 1; banks <= 4; banks += 3)
        for (int lat = 4; lat <= 20; lat += 16)
            for (int mode = 0; mode < 2; mode++) {
                struct fake_wl *f = fw_create(32, 1);
                struct inst p[] = {I_LD(1, 0x20000, 160), I_INT(2, 1), I_LD(3, 0x20000, 160),
                                   I_INT(4, 3)};
                fw_prog(f, -1, p, 4);
                char ini[256];
                snprintf(ini, sizeof ini,
                         "[core]\nl1_banks = %d\n[l1d]\nsets = 1\nways = 64\nmshrs = 32\n"
                         "hit_lat = %d\n",
                         banks, lat);
                struct h *h = h_create(ini, f);
                h->every_cycle = mode;
                h_run(h, 10000);
                unsigned cycles = 32 / (unsigned)banks; /* L1 cycles one round takes */
                uint64_t int1 = cycles + 100;
                assert_int_equal(h_issue(h, 0, 1), int1);
                assert_int_equal(h_issue(h, 0, 2), int1 + 1);
                assert_int_equal(h_issue(h, 0, 3), int1 + 2 + (cycles - 1) + (uint64_t)lat);
                assert_int_equal(h->nsent, 32);
                for (unsigned i = 0; i < 32; i++) {
                    assert_int_equal(h->sent_copy[i].sectors, 1u << (i % 4));
                    assert_int_equal(h->sent_copy[i].ts[MEM_TS_L1], 1 + i / (unsigned)banks);
                }
                const struct sm_stats *st = sm_stats(h->s);
                assert_int_equal(st->load_time.max, int1);
                assert_int_equal(st->load_time.min, 1 + (cycles - 1) + (uint64_t)lat);
                assert_int_equal(st->ldst_port_cycles, 0);
                assert_int_equal(st->ldst_resfail_cycles, 0);
                const struct cache_stats *cs = cache_stats(sm_l1d(h->s));
                assert_int_equal(cs->access[0][CACHE_MISS], 32);
                assert_int_equal(cs->access[0][CACHE_HIT], 32);
                assert_int_equal(h->allocs, h->frees);
                h_destroy(h);
            }
}

/* A load of `n` lanes, lane i on a line of its own at sector bank[i]. */
static struct inst ld_banks(uint16_t dst, uint64_t base, const unsigned *bank, unsigned n) {
    struct inst in = I_MEM(SPACE_GLOBAL, MOP_LOAD, dst, 0, 0, 4, (uint32_t)((1ull << n) - 1));
    for (unsigned i = 0; i < n; i++) in.addr[i] = base + 128 * (uint64_t)i + 32 * bank[i];
    return in;
}

/* A 4-way conflicting shared-memory load holds the unit at 1-4 while loads A (issued at 1) and
 * B (at 2) queue behind it. A's banks 0 1 | 0 2 3 1 | 2 3: a cycle's batch ends at the first
 * request whose bank is taken (5, 5, then 6 x 4, then 7, 7), not skipping it. B's banks 0 1 are
 * free at 7 but B is another instruction: it starts at 8. One bank: one request a cycle. */
static void test_l1_bank_conflict_ends_batch(void **state) {
    (void)state;
    static const unsigned ba[] = {0, 1, 0, 2, 3, 1, 2, 3}, bb[] = {0, 1};
    static const uint64_t want4[] = {5, 5, 6, 6, 6, 6, 7, 7, 8, 8};
    for (int banks = 1; banks <= 4; banks += 3)
        for (int mode = 0; mode < 2; mode++) {
            struct fake_wl *f = fw_create(32, 1);
            struct inst p[] = {I_MEM(SPACE_SHARED, MOP_LOAD, 1, 0, 128, 4, 0xfu),
                               ld_banks(2, 0x60000, ba, 8), ld_banks(3, 0x70000, bb, 2)};
            fw_prog(f, -1, p, 3);
            char ini[128];
            snprintf(ini, sizeof ini, "[core]\nl1_banks = %d\n[l1d]\nmshrs = 16\n", banks);
            struct h *h = h_create(ini, f);
            h->every_cycle = mode;
            h_run(h, 10000);
            assert_int_equal(h_issue(h, 0, 1), 1);
            assert_int_equal(h_issue(h, 0, 2), 2);
            assert_int_equal(sm_stats(h->s)->smem_conflict_cycles, 3);
            assert_int_equal(h->nsent, 10);
            for (unsigned i = 0; i < 10; i++) {
                assert_int_equal(h->sent_copy[i].addr,
                                 (i < 8 ? 0x60000 : 0x70000) + 128 * (uint64_t)(i < 8 ? i : i - 8));
                assert_int_equal(h->sent_copy[i].ts[MEM_TS_L1], banks == 4 ? want4[i] : 5 + i);
            }
            h_destroy(h);
        }
}

/* Reservation failures in the middle of a cycle's batch: the spread load of 32 lines with 6
 * MSHRs and 4 banks. 1: requests 0-3 miss; 2: 4 and 5 miss, 6 fails and the unit waits for a
 * fill, blocked from cycle 3 (cycle 2 made progress). 101: the fills of 0-3 free 4 MSHRs, 6-9
 * go; 102: the fills of 4, 5 let 10, 11 go, 12 fails (blocked from 103), and so on every 100
 * cycles: 5 waits of 98 cycles; 30 and 31 go at 501 and are back at 601. */
static void test_l1_banks_resfail_mid_batch(void **state) {
    (void)state;
    static const uint64_t want[32] = {1,   1,   1,   1,   2,   2,   101, 101, 101, 101, 102,
                                      102, 201, 201, 201, 201, 202, 202, 301, 301, 301, 301,
                                      302, 302, 401, 401, 401, 401, 402, 402, 501, 501};
    for (int mode = 0; mode < 2; mode++) {
        struct fake_wl *f = fw_create(32, 1);
        struct inst p[] = {I_LD(1, 0x20000, 160), I_INT(2, 1)};
        fw_prog(f, -1, p, 2);
        struct h *h = h_create("[core]\nl1_banks = 4\n[l1d]\nsets = 1\nways = 64\nmshrs = 6\n", f);
        h->every_cycle = mode;
        h_run(h, 10000);
        assert_int_equal(h_issue(h, 0, 1), 601);
        assert_int_equal(h->nsent, 32);
        for (unsigned i = 0; i < 32; i++) assert_int_equal(h->sent_copy[i].ts[MEM_TS_L1], want[i]);
        const struct sm_stats *st = sm_stats(h->s);
        assert_int_equal(st->ldst_resfail_cycles, 5 * 98);
        assert_int_equal(st->ldst_port_cycles, 0);
        assert_int_equal(cache_stats(sm_l1d(h->s))->fail[CACHE_FAIL_MSHR], 5);
        h_destroy(h);
    }
}

/* ---- random traffic: conservation and event-skipping equivalence ---- */

static void random_program(struct fake_wl *f, uint64_t seed) {
    struct ws_rng rng;
    ws_rng_seed(&rng, seed);
    for (int w = 0; w < 4; w++) {
        struct inst p[40];
        unsigned n = 0;
        while (n < 40) {
            uint64_t k = ws_rng_below(&rng, 10);
            uint16_t r = (uint16_t)(1 + ws_rng_below(&rng, 12));
            uint16_t s = (uint16_t)(1 + ws_rng_below(&rng, 12));
            uint64_t base = 0x100000 + 32 * ws_rng_below(&rng, 512);
            uint64_t stride = (uint64_t[]){4, 8, 64, 132, 1024}[ws_rng_below(&rng, 5)];
            uint32_t act = (uint32_t)ws_rng_next(&rng) | 1u;
            if (k < 3)
                p[n] = I_MEM(SPACE_GLOBAL, MOP_LOAD, r, base, stride, 4, act);
            else if (k == 3)
                p[n] = I_MEM(SPACE_GLOBAL, MOP_STORE, r, base, stride, 4, act);
            else if (k == 4)
                p[n] = I_MEM(SPACE_GLOBAL, MOP_ATOMIC, r, base, stride, 4, act);
            else if (k == 5)
                p[n] = I_MEM(SPACE_SHARED, MOP_LOAD, r, 4 * ws_rng_below(&rng, 64), stride, 4, act);
            else if (k == 6 && n > 0 && n % 13 == 0)
                p[n] = I_BAR();
            else
                p[n] = I_INT(r, s);
            n++;
        }
        fw_prog(f, w, p, n);
    }
}

static unsigned global_loads(const struct fake_wl *f) {
    unsigned n = 0;
    for (int w = 0; w < 4; w++)
        for (unsigned i = 0; i < f->plen[w]; i++)
            n += f->prog[w][i].cls == OP_MEM && f->prog[w][i].space == SPACE_GLOBAL &&
                 f->prog[w][i].mop == MOP_LOAD;
    return n;
}

static void run_random(const char *ini, uint64_t delay, unsigned accept_every) {
    struct h *hh[2];
    for (int mode = 0; mode < 2; mode++) {
        struct fake_wl *f = fw_create(128, 12);
        f->cta_addr_stride = 4096;
        random_program(f, 42);
        unsigned nload = global_loads(f);
        struct h *h = hh[mode] = h_create(ini, f);
        h->every_cycle = mode;
        h->delay = delay;
        h->accept_every = accept_every;
        h_run(h, 1000000);
        const struct sm_stats *st = sm_stats(h->s);
        assert_int_equal(st->ctas_done, 12);
        assert_int_equal(st->load_warps, 12 * nload);
        assert_int_equal(h->allocs, h->frees);
        assert_int_equal(st->reqs_created, h->allocs);
        assert_int_equal(st->reqs_freed, h->frees);
        assert_true(h->allocs > st->mem_reqs); /* some fetches */
        assert_true(sm_idle(h->s));
        assert_true(cache_idle(sm_l1d(h->s)));
    }
    /* Calling the SM only at sm_next_event changes nothing. */
    assert_int_equal(hh[0]->ntr, hh[1]->ntr);
    for (unsigned i = 0; i < hh[0]->ntr; i++) { /* field by field: padding is not data */
        assert_int_equal(hh[0]->tr[i].sub, hh[1]->tr[i].sub);
        assert_int_equal(hh[0]->tr[i].slot, hh[1]->tr[i].slot);
        assert_int_equal(hh[0]->tr[i].cls, hh[1]->tr[i].cls);
        assert_int_equal(hh[0]->tr[i].pc, hh[1]->tr[i].pc);
        assert_int_equal(hh[0]->tr[i].now, hh[1]->tr[i].now);
    }
    assert_int_equal(hh[0]->end, hh[1]->end);
    assert_memory_equal(sm_stats(hh[0]->s), sm_stats(hh[1]->s), sizeof(struct sm_stats));
    assert_memory_equal(cache_stats(sm_l1d(hh[0]->s)), cache_stats(sm_l1d(hh[1]->s)),
                        sizeof(struct cache_stats));
    h_destroy(hh[0]);
    h_destroy(hh[1]);
}

/* Seed 001 Eq. 3.1 on a 32-set L1D: one load of 32 lanes with a power-of-two stride touches 32
 * lines; the conventional (linear) index maps stride 2^15 (ATAX/BICG/MVT's 8K-float rows) to one
 * set (concentration 32), 2^11 (SYRK) to 2 sets (16), 2^10 (SYR2K) to 4 (8); a coalesced load is
 * 1; the bitwise-XOR index spreads 2^15 over 4 sets (8) and 2^10 over all 32 (1). */
static double concentration(const char *index, uint64_t stride) {
    struct fake_wl *f = fw_create(32, 1);
    struct inst p[] = {I_LD(1, 0x40000000, stride), I_INT(2, 1)};
    fw_prog(f, -1, p, 2);
    char extra[128];
    snprintf(extra, sizeof extra, "[l1d]\nsets = 32\nmshrs = 64\nindex = %s\n", index);
    struct h *h = h_create(extra, f);
    h_run(h, 100000);
    const struct sm_stats *st = sm_stats(h->s);
    assert_int_equal(st->conc_loads, 1);
    double c = (double)st->conc_milli / 1000.0;
    h_destroy(h);
    return c;
}

static void test_intra_warp_concentration(void **state) {
    (void)state;
    assert_true(concentration("linear", 1u << 15) == 32.0);
    assert_true(concentration("linear", 1u << 11) == 16.0);
    assert_true(concentration("linear", 1u << 10) == 8.0);
    assert_true(concentration("linear", 4) == 1.0);
    assert_true(concentration("xor", 1u << 15) == 8.0);
    assert_true(concentration("xor", 1u << 10) == 1.0);
}

static void test_conservation_write_evict(void **state) {
    (void)state;
    run_random(NULL, 100, 0);
}

static void test_conservation_small_queues(void **state) {
    (void)state;
    run_random("[core]\nout_q = 1\nldst_q = 4\nsubcores = 2\nwarp_sched = gto\n"
               "[l1d]\nmshrs = 2\nmshr_merge = 2\nmiss_queue = 1\n",
               37, 3);
}

static void test_conservation_write_back(void **state) {
    (void)state;
    run_random("[l1d]\nwrite = write-back\nwrite_alloc = write-alloc\nalloc = on-fill\n"
               "sets = 2\nways = 2\n",
               50, 0);
}

static void test_conservation_streaming(void **state) {
    (void)state;
    run_random("[l1d]\nstreaming = true\n", 100, 0);
}

static void test_conservation_banks(void **state) {
    (void)state;
    run_random("[core]\nl1_banks = 4\n", 100, 0);
    run_random("[core]\nl1_banks = 4\nout_q = 2\nldst_q = 4\nsubcores = 2\n"
               "[l1d]\nmshrs = 3\nmshr_merge = 2\nmiss_queue = 2\nhit_lat = 3\n",
               37, 3);
    run_random("[core]\nl1_banks = 3\n[l1d]\nwrite = write-back\nwrite_alloc = write-alloc\n"
               "sets = 2\nways = 2\n",
               50, 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_load_miss_then_hit),
        cmocka_unit_test(test_offchip_counts_missing_sectors),
        cmocka_unit_test(test_divergent_load_occlusion),
        cmocka_unit_test(test_store_and_atomic),
        cmocka_unit_test(test_shared_memory),
        cmocka_unit_test(test_exit_waits_for_load_and_next_event),
        cmocka_unit_test(test_l1_banks_throughput),
        cmocka_unit_test(test_l1_bank_conflict_ends_batch),
        cmocka_unit_test(test_l1_banks_resfail_mid_batch),
        cmocka_unit_test(test_intra_warp_concentration),
        cmocka_unit_test(test_conservation_write_evict),
        cmocka_unit_test(test_conservation_small_queues),
        cmocka_unit_test(test_conservation_write_back),
        cmocka_unit_test(test_conservation_streaming),
        cmocka_unit_test(test_conservation_banks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
