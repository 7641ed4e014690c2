/* Statistics registry (see stats.h). */
#include "base/stats.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void stats_reg_init(struct stats_reg *r) {
    memset(r, 0, sizeof *r);
}
void stats_reg_free(struct stats_reg *r) {
    free(r->g);
    memset(r, 0, sizeof *r);
}

int stats_desc_check(const struct stat_desc *desc, size_t n, struct ws_err *e) {
    for (size_t i = 0; i < n; i++) {
        if (!desc[i].doc || !desc[i].doc[0])
            return ws_fail(e, "stat '%s' has no definition", desc[i].name);
        for (size_t j = i + 1; j < n; j++)
            if (strcmp(desc[i].name, desc[j].name) == 0)
                return ws_fail(e, "stat name '%s' is used twice", desc[i].name);
    }
    return 0;
}

int stats_register(struct stats_reg *r, const char *name, const struct stat_desc *desc, size_t n,
                   const void *obj, struct ws_err *e) {
    if (stats_desc_check(desc, n, e) != 0) return -1;
    if (r->n == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 16;
        struct stats_group *ng = realloc(r->g, cap * sizeof *ng);
        if (!ng) return ws_fail(e, "out of memory");
        r->g = ng;
        r->cap = cap;
    }
    struct stats_group *g = &r->g[r->n++];
    snprintf(g->name, sizeof g->name, "%s", name);
    g->desc = desc;
    g->n = n;
    g->obj = obj;
    return 0;
}

static json_t *hist_json(const struct ws_hist *h) {
    json_t *o = json_object();
    json_object_set_new(o, "count", json_integer((json_int_t)h->count));
    json_object_set_new(o, "mean", json_real(ws_hist_mean(h)));
    json_object_set_new(o, "min", json_integer((json_int_t)(h->count ? h->min : 0)));
    static const double pct[] = {25, 50, 75, 95, 99};
    static const char *const pname[] = {"p25", "p50", "p75", "p95", "p99"};
    for (int i = 0; i < 5; i++)
        json_object_set_new(o, pname[i], json_integer((json_int_t)ws_hist_percentile(h, pct[i])));
    json_object_set_new(o, "max", json_integer((json_int_t)h->max));
    /* the distribution itself, so box plots and other quantiles never need a re-run: the
     * non-empty buckets as [lowest value, count] (exact below 64, then 16 per power of two) */
    json_t *b = json_array();
    for (unsigned i = 0; i < HIST_BUCKETS; i++) {
        if (!h->bucket[i]) continue;
        json_t *pair = json_array();
        json_array_append_new(pair, json_integer((json_int_t)ws_hist_bucket_low(i)));
        json_array_append_new(pair, json_integer((json_int_t)h->bucket[i]));
        json_array_append_new(b, pair);
    }
    json_object_set_new(o, "buckets", b);
    return o;
}

json_t *stats_to_json(const struct stats_reg *r) {
    json_t *root = json_object();
    for (size_t gi = 0; gi < r->n; gi++) {
        const struct stats_group *g = &r->g[gi];
        json_t *o = json_object();
        for (size_t i = 0; i < g->n; i++) {
            const struct stat_desc *d = &g->desc[i];
            const char *p = (const char *)g->obj + d->offset;
            json_t *v = NULL;
            switch (d->kind) {
            case STAT_COUNTER:
                v = json_integer((json_int_t) * (const uint64_t *)p);
                break;
            case STAT_REAL:
                v = json_real(*(const double *)p);
                break;
            case STAT_HIST:
                v = hist_json((const struct ws_hist *)p);
                break;
            }
            json_object_set_new(o, d->name, v);
        }
        json_object_set_new(root, g->name, o);
    }
    return root;
}

/* Keyed by the full name (group.stat): groups reuse short names with other meanings and units
 * (dram.cycles are DRAM clock cycles, gpu.cycles core cycles). */
json_t *stats_definitions_json(const struct stats_reg *r) {
    json_t *root = json_object();
    for (size_t gi = 0; gi < r->n; gi++) {
        const struct stats_group *g = &r->g[gi];
        for (size_t i = 0; i < g->n; i++) {
            const struct stat_desc *d = &g->desc[i];
            char name[160], buf[512];
            snprintf(name, sizeof name, "%s.%s", g->name, d->name);
            snprintf(buf, sizeof buf, "%s%s%s%s", d->doc, d->unit && d->unit[0] ? " [" : "",
                     d->unit ? d->unit : "", d->unit && d->unit[0] ? "]" : "");
            json_object_set_new(root, name, json_string(buf));
        }
    }
    return root;
}

void stats_print_text(const struct stats_reg *r, FILE *out) {
    for (size_t gi = 0; gi < r->n; gi++) {
        const struct stats_group *g = &r->g[gi];
        for (size_t i = 0; i < g->n; i++) {
            const struct stat_desc *d = &g->desc[i];
            const char *p = (const char *)g->obj + d->offset;
            char name[160];
            snprintf(name, sizeof name, "%s.%s", g->name, d->name);
            switch (d->kind) {
            case STAT_COUNTER:
                fprintf(out, "%-40s %14llu %-8s # %s\n", name,
                        (unsigned long long)*(const uint64_t *)p, d->unit, d->doc);
                break;
            case STAT_REAL: {
                /* 4 decimals, unless that would show a small non-zero value as 0 */
                double v = *(const double *)p;
                if (v != 0 && fabs(v) < 0.001)
                    fprintf(out, "%-40s %14.4e %-8s # %s\n", name, v, d->unit, d->doc);
                else
                    fprintf(out, "%-40s %14.4f %-8s # %s\n", name, v, d->unit, d->doc);
                break;
            }
            case STAT_HIST: {
                const struct ws_hist *h = (const struct ws_hist *)p;
                fprintf(out,
                        "%-40s %14.2f %-8s # %s (mean; p50 %llu, p95 %llu, max %llu, n %llu)\n",
                        name, ws_hist_mean(h), d->unit, d->doc,
                        (unsigned long long)ws_hist_percentile(h, 50),
                        (unsigned long long)ws_hist_percentile(h, 95), (unsigned long long)h->max,
                        (unsigned long long)h->count);
                break;
            }
            }
        }
    }
}
