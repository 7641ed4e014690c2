/* The workload registry: built-in kernel models by name (kernels/kernels.def), the common keys,
 * and a timing-free driver that runs a whole workload through its interface. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "base/bits.h"
#include "workload/kernels/kmodel.h"
#include "workload/workload.h"

#define WL_KERNEL(n, suite, cls, desc)                                                             \
    struct workload *n##_create(struct cfg *c, const struct workload_common *wc, struct ws_err *e);
#include "workload/kernels/kernels.def"
#undef WL_KERNEL

const struct workload_info workload_table[] = {
#define WL_KERNEL(n, suite, cls, desc) {#n, suite, cls, desc, n##_create},
#include "workload/kernels/kernels.def"
#undef WL_KERNEL
};
const unsigned workload_ntable = sizeof workload_table / sizeof workload_table[0];

const struct workload_info *workload_find(const char *name) {
    for (unsigned i = 0; i < workload_ntable; i++)
        if (strcasecmp(workload_table[i].name, name) == 0) return &workload_table[i];
    return NULL;
}

const char *workload_suggest(const char *name) {
    struct cfg_suggest s = {.typed = name};
    for (unsigned i = 0; i < workload_ntable; i++) cfg_suggest_offer(&s, workload_table[i].name);
    return s.best;
}

static const char *const size_names[] = {"test", "paper", NULL};
static const struct cfg_key common_keys[] = {
    {"workload.name", CFG_STRING, offsetof(struct workload_common, name), "bfs", 0, 0, NULL, "",
     "built-in workload to run (warpsim list workloads)"},
    {"workload.size", CFG_ENUM, offsetof(struct workload_common, size), "test", 0, 0, size_names,
     "", "input size preset: test (seconds to simulate) or paper (the papers' inputs)"},
    {"workload.seed", CFG_INT, offsetof(struct workload_common, seed), "1", 0, 9.0e15, NULL, "",
     "seed of generated inputs (graphs, points, vectors)"},
};

struct workload *workload_create(struct cfg *c, struct ws_err *e) {
    struct workload_common wc;
    memset(&wc, 0, sizeof wc);
    if (cfg_bind(c, "workload", common_keys, CFG_COUNT(common_keys), &wc, e) != 0) return NULL;
    const struct workload_info *wi = workload_find(wc.name);
    if (!wi) {
        char list[512] = "", where[600];
        cfg_origin(c, "workload.name", where, sizeof where);
        const char *near = workload_suggest(wc.name);
        if (near) {
            ws_fail(e, "%s: workload.name = '%s' is not a known workload (did you mean '%s'?)",
                    where, wc.name, near);
            return NULL;
        }
        for (unsigned i = 0; i < workload_ntable; i++) {
            strncat(list, i ? ", " : "", sizeof list - strlen(list) - 1);
            strncat(list, workload_table[i].name, sizeof list - strlen(list) - 1);
        }
        ws_fail(e, "%s: workload.name = '%s' is not a known workload (known: %s)", where, wc.name,
                list);
        return NULL;
    }
    /* another workload's keys (workload.bfs.nodes in a vecadd run) are not unknown: say whose */
    for (unsigned i = 0; i < workload_ntable; i++) {
        if (workload_table + i == wi) continue;
        char prefix[96], why[200];
        snprintf(prefix, sizeof prefix, "workload.%s.", workload_table[i].name);
        snprintf(why, sizeof why, "only workload %s reads workload.%s.*; this run's workload is %s",
                 workload_table[i].name, workload_table[i].name, wi->name);
        if (cfg_note_key(c, prefix, why, e) != 0) return NULL;
    }
    return wi->create(c, &wc, e);
}

uint64_t workload_device_bytes(const struct workload *w) {
    return km_wl_device_bytes(w);
}

int workload_count(struct workload *w, struct wl_count *cnt, struct ws_err *e) {
    memset(cnt, 0, sizeof *cnt);
    struct kernel_desc k;
    struct wl_warp *warps[1024 / WARP_SIZE];
    struct inst in;
    int rc;
    while ((rc = w->vt->next_kernel(w, &k, e)) == 1) {
        cnt->kernels++;
        uint32_t nw = (k.threads + WARP_SIZE - 1) / WARP_SIZE;
        if (nw > sizeof warps / sizeof warps[0])
            return ws_fail(e, "kernel '%s': %u threads per CTA (1024 at most)", k.name, k.threads);
        for (uint64_t cta = 0; cta < k.ncta; cta++) {
            if (w->vt->cta_start(w, cta, warps, e)) return -1;
            cnt->ctas++;
            for (uint32_t i = 0; i < nw; i++) {
                cnt->warps++;
                do {
                    if (w->vt->warp_next(w, warps[i], &in, e)) return -1;
                    cnt->insts++;
                    cnt->thread_insts += ws_popcount32(in.active);
                    if (in.cls < OP_NCLASS) cnt->by_class[in.cls]++;
                } while (in.cls != OP_EXIT);
            }
            w->vt->cta_end(w, cta, warps);
        }
    }
    return rc < 0 ? -1 : 0;
}
