/* mars: the Mars MapReduce framework (mars.c) as the app models (mars_<app>.c) use it: the
 * runtime program builder and the map/emit code pieces the apps' map bodies are made of, the
 * workload state, the host-side helpers for inputs and verification, and the app descriptor the
 * framework calls into. */
#pragma once

#include "workload/kernels/kmodel.h"

enum {
    MR_MAXCOPY = 80,
    MR_BLOCK = 256,
    MR_COPY_BLOCK = 128,
    MR_COPY_GRID = 512,
    MR_HELPER_BLOCK = 512
};

/* Runtime program builder: the Mars kernels inline the app's map/compare code, so programs are
 * assembled from pieces (and unrolled byte copies) at create time. */
struct kb {
    struct km_inst *c;
    uint32_t n, cap;
    bool oom;
    char lbl[64][24];
    uint32_t nl;
};

void kb_put(struct kb *b, struct km_inst i);
#define E(...) kb_put(b, (struct km_inst)__VA_ARGS__)

/* Map code pieces (registers as in mars.c: after gen_map_record R4 = key, R5 = val). */
void gen_emit_count(struct kb *b, int ks, int vs);
void gen_emit(struct kb *b, int ksp, int vsp, int ksz, int vsz);
void gen_hash(struct kb *b);
void gen_const_count(struct kb *b, int ksz, int vsz);
void gen_outbuf(struct kb *b);

enum mr_cmp { CMP_HASHSTR, CMP_FLOAT_DESC, CMP_INT_DESC };

struct mars;
/* An app: its name, compare, workflow, map_count / map bodies and host check. */
struct mars_app {
    const char *name;
    enum mr_cmp cmp;
    bool reduce_first; /* pvc: a MAP_REDUCE call whose output is the input of a MAP_GROUP one */
    void (*gen_count)(struct kb *b);
    void (*gen_map)(struct kb *b);
    int (*verify)(struct mars *m, struct ws_err *e);
};

struct mr_data { /* key/value buffers with their int4 index, on the host */
    uint8_t *keys, *vals;
    int32_t *os; /* 4 per record */
    uint32_t n;
    uint64_t kbytes, vbytes;
};

enum mr_step { /* what the next launch is (the host work before it included) */
               ST_MAPCOUNT,
               ST_MAP,
               ST_INIT,
               ST_SORT,
               ST_GETV,
               ST_SCANV,
               ST_COPYV,
               ST_SETV,
               ST_GETK,
               ST_SCANK,
               ST_COPYK,
               ST_BOUND,
               ST_WRITEB,
               ST_SETB,
               ST_GROUPED,
               ST_REDCOUNT,
               ST_RED,
               ST_DONE
};

struct mars {
    struct km_workload kw; /* first: the kmodel glue casts to it */
    const struct mars_app *app;
    struct km_prog pcount, pmap, psort, pcopy, pbound, prcount, pred;
    struct km_prog pinit, pgetxy, pgetzw, psetxy, psetzw, pgety, pwriteb, psetb;
    uint32_t njobs, job; /* MapReduce calls (pvc: 2) */
    bool reduce;         /* this job's workflow is MAP_REDUCE */
    enum mr_step step;
    uint32_t launches;
    struct mr_data in;
    /* device state of the current job */
    uint64_t d_ikeys, d_ivals, d_ios, d_ks, d_vs, d_cnt, d_pks, d_pvs, d_pcnt, d_ok, d_ov, d_oos,
        d_kvo, d_cur;
    uint64_t d_gkeys, d_gvals, d_gos, d_R, d_PA, d_size, d_sum, d_start, d_ssum, d_bnd, d_orng,
        d_rng;
    uint32_t threads; /* map/reduce threads launched (per-task array length) */
    uint32_t inter_n; /* intermediate records */
    uint64_t inter_kb, inter_vb;
    uint32_t padded, sk, sj; /* bitonic: records, current k and j */
    uint32_t chunk;          /* copyChunks launches done */
    uint32_t ngroups;
    int32_t *range;                            /* host copy of the key list ranges [ngroups][2] */
    uint64_t d_out_keys, d_out_vals, d_out_os; /* final output of the job */
    uint32_t out_n;
    uint64_t out_kb, out_vb;
    struct wl_copy copies[MR_MAXCOPY];
    uint32_t ncopies;
    /* app inputs */
    uint64_t d_file[64]; /* pvc/pvr: the log; iix: one per file */
    uint32_t nfiles;
    char *text[64]; /* host copy of each file (pvc: as given to the device) */
    uint64_t text_len[64];
    float *matrix;
    uint64_t d_matrix;
    float *ss_keys; /* verify: host keys, bitonic order and pairs */
    int32_t *ss_order, *ss_pair;
    uint32_t docs, dim;
};

/* cudaMalloc (bytes 0 counts as 4) and the host view of device memory. */
int mars_dev(struct mars *m, uint64_t *addr, uint64_t bytes, const char *what, struct ws_err *e);
void *mars_host(struct mars *m, uint64_t addr, uint64_t bytes);

/* The workload with all its programs built, no input yet; NULL with e set. */
struct mars *mars_new(const struct mars_app *app, struct ws_err *e);
void mars_destroy(struct workload *w);

/* Inputs. */
int data_alloc(struct mr_data *d, uint32_t n, uint64_t kb, uint64_t vb, struct ws_err *e);
void data_rec(struct mr_data *d, uint32_t i, uint32_t ksz, uint32_t vsz);
struct textbuf {
    char *s;
    uint64_t n, cap;
};
bool tb_add(struct textbuf *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A URL of variable length; popular ones (small u) recur often. */
bool add_url(struct textbuf *t, uint32_t u);

/* Verification: record i of the final sorted output. */
const uint8_t *out_key(struct mars *m, uint32_t i, uint32_t *len);
const uint8_t *out_val(struct mars *m, uint32_t i);
int cmp_str(const void *a, const void *b); /* qsort of char * */
/* Host truth for pvc/iix: the sorted list of (string, count) pairs ("URL" + group size). */
struct truth {
    char **s;
    uint32_t n;
};

int check_groups(struct mars *m, struct truth *t, const char *what, int extra, struct ws_err *e);
/* Checks record i, names the input record it is in *id; -1 with e set. */
typedef int (*mars_rec_fn)(struct mars *m, uint32_t i, uint32_t *id, struct ws_err *e);
/* out_n == expect and rec() passes for every record, each input record once. */
int mars_check_once(struct mars *m, uint32_t expect, mars_rec_fn rec, struct ws_err *e);
