/* The BFS model (src/workload/kernels/bfs.c) against NVBit: on graph4096.txt, the first level's
 * Kernel and Kernel2 exported by trace-export make exactly the global loads and stores of the
 * real sm_80 Accel-Sim trace of Rodinia's BFS on that graph (shared/data, mgpusim-bfs-rodinia-
 * k1-k2): warp by warp, in order, the same kind (load or store), width and active lanes, and
 * each lane's address the same array and offset within it (the arrays' bases differ: they are
 * read from each trace's MemcpyHtoD lines, which come in cudaMalloc order in both). */
#include "trace_harness.h"

#include "workload/trace/kernelslist.h"
#include "workload/trace/trace_export.h"
#include "workload/trace/traceg.h"
#include "testutil.h"

#define REAL ACCELSIM "/mgpusim-bfs-rodinia-k1-k2"
enum { NARR = 7, WARPS = 8 * 16 }; /* d_graph_nodes .. d_over; 8 blocks of 16 warps */

struct mop {
    char kind; /* 'L' or 'S' */
    uint32_t width, mask;
    uint8_t arr[32];
    uint32_t off[32];
};
struct warp_ops {
    struct mop *op;
    uint32_t n, cap;
};

struct arrays {
    uint64_t base[NARR], bytes[NARR];
};

static void arrays_of(const char *dir, struct arrays *a) {
    struct ws_err e = {{0}};
    struct kl *k = kl_load(dir, &e);
    if (!k) fail_msg("%s", e.msg);
    uint32_t n = 0;
    for (uint32_t i = 0; i < k->n && n < NARR; i++)
        if (k->cmd[i].type == KL_COPY) {
            a->base[n] = k->cmd[i].addr;
            a->bytes[n++] = k->cmd[i].bytes;
        }
    assert_int_equal(n, NARR);
    kl_free(k);
}

/* Every warp's global loads and stores in the kernel file, addresses as (array, offset). */
static void read_ops(const char *path, const struct arrays *a, struct warp_ops *w) {
    struct ws_err e = {{0}};
    struct traceg *t = tg_open(path, &e);
    if (!t) fail_msg("%s", e.msg);
    const struct tg_header *h = tg_header(t);
    assert_int_equal(h->grid[0] * h->grid[1] * h->grid[2], 8);
    assert_int_equal(h->block[0], 512);
    uint64_t cta = 0;
    struct warp_ops *cur = NULL;
    struct tg_event ev;
    struct tg_line ln;
    for (;;) {
        if (tg_next(t, &ev, &e)) fail_msg("%s", e.msg);
        if (ev.type == TG_EOF) break;
        if (ev.type == TG_TB_BEGIN) cta = ev.cta;
        if (ev.type == TG_WARP) {
            assert_true(cta * 16 + ev.warp < WARPS);
            cur = &w[cta * 16 + ev.warp];
        }
        if (ev.type != TG_INST) continue;
        if (tg_parse(t, ev.line, &ln, &e)) fail_msg("%s", e.msg);
        bool ld = ln.oplen >= 3 && strncmp(ln.op, "LDG", 3) == 0;
        bool st = ln.oplen >= 3 && strncmp(ln.op, "STG", 3) == 0;
        if (!ln.mem_width || !(ld || st)) continue;
        if (cur->n == cur->cap) {
            cur->cap = cur->cap ? 2 * cur->cap : 64;
            cur->op = realloc(cur->op, cur->cap * sizeof *cur->op);
            assert_non_null(cur->op);
        }
        struct mop *m = &cur->op[cur->n++];
        memset(m, 0, sizeof *m);
        m->kind = ld ? 'L' : 'S';
        m->width = ln.mem_width;
        m->mask = ln.mask;
        for (uint32_t l = 0; l < 32; l++) {
            if (!(ln.mask >> l & 1)) continue;
            uint32_t k = NARR;
            for (uint32_t i = 0; i < NARR; i++)
                if (ln.addr[l] >= a->base[i] && ln.addr[l] < a->base[i] + a->bytes[i]) k = i;
            if (k == NARR)
                fail_msg("%s: lane %u address 0x%llx is in no array", path, l,
                         (unsigned long long)ln.addr[l]);
            m->arr[l] = (uint8_t)k;
            m->off[l] = (uint32_t)(ln.addr[l] - a->base[k]);
        }
    }
    tg_close(t);
}

static void free_ops(struct warp_ops *w) {
    for (uint32_t i = 0; i < WARPS; i++) free(w[i].op);
}

static void test_first_level_matches_nvbit(void **state) {
    (void)state;
    tdir_new();
    struct workload *wl =
        tu_workload("[workload]\nname = bfs\n[workload.bfs]\ngraph = " WS_SHARED_DATA
                    "/graphs/rodinia-bfs/graph4096.txt\n");
    struct trace_export_opts o = {.binary_version = 80};
    struct trace_export_stats st;
    struct ws_err e = {{0}};
    if (trace_export(wl, tdir, &o, &st, &e)) fail_msg("%s", e.msg);
    wl->vt->destroy(wl);
    assert_int_equal(st.kernels, 16);

    struct arrays real, ours;
    arrays_of(REAL, &real);
    arrays_of(tdir, &ours);
    for (uint32_t i = 0; i < NARR; i++) assert_int_equal(real.bytes[i], ours.bytes[i]);

    static const char *const files[] = {"kernel-1.traceg", "kernel-2.traceg"};
    uint64_t compared = 0;
    for (unsigned f = 0; f < 2; f++) {
        char rpath[512];
        snprintf(rpath, sizeof rpath, "%s/%s", REAL, files[f]);
        struct warp_ops rw[WARPS], ow[WARPS];
        memset(rw, 0, sizeof rw);
        memset(ow, 0, sizeof ow);
        read_ops(rpath, &real, rw);
        read_ops(tpath(files[f]), &ours, ow);
        for (uint32_t w = 0; w < WARPS; w++) {
            if (rw[w].n != ow[w].n)
                fail_msg("%s warp %u: %u memory instructions in the real trace, %u modelled",
                         files[f], w, rw[w].n, ow[w].n);
            for (uint32_t i = 0; i < rw[w].n; i++) {
                const struct mop *x = &rw[w].op[i], *y = &ow[w].op[i];
                if (x->kind != y->kind || x->width != y->width || x->mask != y->mask ||
                    memcmp(x->arr, y->arr, sizeof x->arr) || memcmp(x->off, y->off, sizeof x->off))
                    fail_msg("%s warp %u, memory instruction %u: real %c%u mask %08x lane-0 "
                             "array %u +%u, modelled %c%u mask %08x array %u +%u",
                             files[f], w, i, x->kind, x->width, x->mask, x->arr[0], x->off[0],
                             y->kind, y->width, y->mask, y->arr[0], y->off[0]);
            }
            compared += rw[w].n;
        }
        free_ops(rw);
        free_ops(ow);
    }
    /* both kernels: every warp's mask load, and the frontier walk of node 0 */
    assert_true(compared > 2 * WARPS);
    tdir_remove();
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_first_level_matches_nvbit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
