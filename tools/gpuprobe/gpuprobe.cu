/* gpuprobe: measures a real GPU's unloaded memory latencies and peak bandwidths, the figures
 * warpsim's machine presets are calibrated against (docs/calibration.md). Not part of the CMake
 * build (CI has no CUDA); build on a CUDA machine with
 *     nvcc -O2 -arch=native -o gpuprobe tools/gpuprobe/gpuprobe.cu
 * and run `./gpuprobe > probe.json`.
 *
 * Latency: one thread follows a chain of dependent loads (each load's value is the next index),
 * so each load waits for the previous one: the time per load is the unloaded round trip of the
 * level that holds the chain. The chain visits `footprint / stride` nodes in a random cyclic
 * order (Sattolo's algorithm), or in address order ("seq", where consecutive nodes share DRAM
 * rows). Cycles come from the SM's clock64(), nanoseconds from CUDA events around a second,
 * timed launch after a warm-up launch over the whole chain. `ca` loads may allocate in the L1,
 * `cg` loads bypass it (L2 and below).
 *
 * Loaded latency: W warps x L lanes chase at once (chase_many), each lane its own chain: cycles
 * per load against the rate of loads. tools/gpuprobe/compare.py runs the simulator's twin of
 * every point and prints both.
 *
 * Bandwidth: every SM streams 16-byte loads (read), stores (write) or both (copy) over buffers
 * far larger than the L2; the best of several launches counts. */
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x)                                                                                      \
    do {                                                                                           \
        cudaError_t err_ = (x);                                                                    \
        if (err_ != cudaSuccess) {                                                                 \
            fprintf(stderr, "gpuprobe: %s:%d: %s\n", __FILE__, __LINE__,                           \
                    cudaGetErrorString(err_));                                                     \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

template <bool CG> __device__ __forceinline__ uint32_t load_next(const uint32_t *p) {
    return CG ? __ldcg(p) : __ldca(p);
}

template <bool CG>
__global__ void chase(const uint32_t *a, uint32_t start, int iters, uint32_t *out,
                      long long *cycles) {
    uint32_t j = start;
    long long t0 = clock64();
    for (int i = 0; i < iters; i++) j = load_next<CG>(a + j);
    long long t1 = clock64();
    out[0] = j;
    cycles[0] = t1 - t0;
}

/* Loaded latency: `lanes` chases per warp (the first lanes of each 32-thread block), each chain
 * starting at its own place in one random cycle over 2 GB, so that many chains load the memory
 * system at once (a warp-load of L lanes touches L random lines). */
__global__ void chase_many(const uint32_t *a, const uint32_t *starts, int lanes, int iters,
                           uint32_t *out, long long *cycles) {
    if ((int)threadIdx.x >= lanes) return;
    const int c = blockIdx.x * lanes + threadIdx.x;
    uint32_t j = starts[c];
    long long t0 = clock64();
    for (int i = 0; i < iters; i++) j = __ldcg(a + j);
    long long t1 = clock64();
    out[c] = j;
    cycles[c] = t1 - t0;
}

/* Shared memory: the same chase over a chain of `n` words in shared memory (one thread). */
__global__ void chase_smem(const uint32_t *chain, uint32_t n, int iters, uint32_t *out,
                           long long *cycles) {
    __shared__ uint32_t s[4096];
    for (uint32_t i = 0; i < n; i++) s[i] = chain[i];
    __syncthreads();
    uint32_t j = 0;
    long long t0 = clock64();
    for (int i = 0; i < iters; i++) j = s[j];
    long long t1 = clock64();
    out[0] = j;
    cycles[0] = t1 - t0;
}

/* Dependent arithmetic: each operation needs the previous result, so cycles per operation are
 * the unit's latency (one warp, nothing to hide it). 8 per iteration to amortise the loop. */
__global__ void dep_ops(int iters, float fa, double da, uint32_t *out, long long *cycles) {
    float x = fa;
    double y = da;
    uint32_t k = (uint32_t)threadIdx.x + 7;
    long long t0 = clock64();
    for (int i = 0; i < iters; i++) {
#pragma unroll
        for (int u = 0; u < 8; u++) x = fmaf(x, 0.999f, 0.5f);
    }
    long long t1 = clock64();
    for (int i = 0; i < iters; i++) {
#pragma unroll
        for (int u = 0; u < 8; u++) /* asm: keeps the compiler from folding the chain */
            asm volatile("mad.lo.u32 %0, %0, %1, %2;" : "+r"(k) : "r"(2654435761u), "r"(12345u));
    }
    long long t2 = clock64();
    for (int i = 0; i < iters; i++) {
#pragma unroll
        for (int u = 0; u < 8; u++) y = fma(y, 0.999, 0.5);
    }
    long long t3 = clock64();
    out[0] = (uint32_t)x ^ k ^ (uint32_t)y;
    cycles[0] = t1 - t0;
    cycles[1] = t2 - t1;
    cycles[2] = t3 - t2;
}

/* a[node i * stride] = index of node nxt[i], in 4-byte words */
__global__ void scatter(uint32_t *a, const uint32_t *nxt, uint32_t n, uint32_t stride_w) {
    for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        a[(size_t)i * stride_w] = nxt[i] * stride_w;
}

__global__ void bw_read(const uint4 *a, size_t n, uint32_t *sink) {
    uint32_t x = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        uint4 v = __ldcg(a + i);
        x ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    if (x == 0x12345678u) sink[0] = x; /* keeps the loads; never true for the data used */
}

__global__ void bw_write(uint4 *a, size_t n) {
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        a[i] = make_uint4((uint32_t)i, 1, 2, 3);
}

__global__ void bw_copy(uint4 *dst, const uint4 *src, size_t n) {
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        dst[i] = __ldcg(src + i);
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;
static uint64_t rng_next() { /* splitmix64: deterministic chains */
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

struct point {
    const char *kind;
    bool cg, seq;
    size_t footprint, stride;
    int iters;
};

/* Writes the chain of n nodes sw words apart into buf: in address order, or one random cycle.
 * Returns the nodes in chain order. */
static std::vector<uint32_t> build_chain(uint32_t *buf, uint32_t *d_nxt, uint32_t n, uint32_t sw,
                                         bool seq) {
    std::vector<uint32_t> nxt(n), perm(n);
    for (uint32_t i = 0; i < n; i++) perm[i] = i;
    if (seq) {
        for (uint32_t i = 0; i < n; i++) nxt[i] = (i + 1) % n;
    } else { /* Sattolo: one cycle through all n nodes */
        for (uint32_t i = n - 1; i > 0; i--) {
            uint32_t k = (uint32_t)(rng_next() % i);
            uint32_t t = perm[i];
            perm[i] = perm[k];
            perm[k] = t;
        }
        for (uint32_t i = 0; i < n; i++) nxt[perm[i]] = perm[(i + 1) % n];
    }
    CK(cudaMemcpy(d_nxt, nxt.data(), n * sizeof(uint32_t), cudaMemcpyHostToDevice));
    scatter<<<1024, 256>>>(buf, d_nxt, n, sw);
    CK(cudaGetLastError());
    return perm;
}

static void run_point(uint32_t *buf, uint32_t *d_nxt, uint32_t *d_out, long long *d_cyc,
                      const point &p, bool first) {
    uint32_t n = (uint32_t)(p.footprint / p.stride), sw = (uint32_t)(p.stride / 4);
    build_chain(buf, d_nxt, n, sw, p.seq);
    /* warm-up: the whole chain once, at most 2^20 loads of it (fills the caches that can hold
     * it, and the TLBs; a longer chain misses every cache anyway) */
    int warm = n < (1u << 20) ? (int)n : (1 << 20);
    if (p.cg)
        chase<true><<<1, 1>>>(buf, 0, warm, d_out, d_cyc);
    else
        chase<false><<<1, 1>>>(buf, 0, warm, d_out, d_cyc);
    CK(cudaDeviceSynchronize());
    uint32_t start;
    CK(cudaMemcpy(&start, d_out, sizeof start, cudaMemcpyDeviceToHost));
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    CK(cudaEventRecord(e0));
    if (p.cg)
        chase<true><<<1, 1>>>(buf, start, p.iters, d_out, d_cyc);
    else
        chase<false><<<1, 1>>>(buf, start, p.iters, d_out, d_cyc);
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, e0, e1));
    long long cyc;
    CK(cudaMemcpy(&cyc, d_cyc, sizeof cyc, cudaMemcpyDeviceToHost));
    printf("%s    {\"kind\": \"%s\", \"footprint\": %zu, \"stride\": %zu, \"loads\": %d, "
           "\"cycles_per_load\": %.1f, \"ns_per_load\": %.1f}",
           first ? "" : ",\n", p.kind, p.footprint, p.stride, p.iters, (double)cyc / p.iters,
           ms * 1e6 / p.iters);
    fflush(stdout);
    CK(cudaEventDestroy(e0));
    CK(cudaEventDestroy(e1));
}

template <typename F> static double best_ms(F launch, int reps) {
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    double best = 1e30;
    for (int r = 0; r < reps; r++) {
        CK(cudaEventRecord(e0));
        launch();
        CK(cudaEventRecord(e1));
        CK(cudaEventSynchronize(e1));
        float ms;
        CK(cudaEventElapsedTime(&ms, e0, e1));
        if (ms < best) best = ms;
    }
    CK(cudaEventDestroy(e0));
    CK(cudaEventDestroy(e1));
    return best;
}

int main() {
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    int clk_khz = 0, mem_khz = 0, bus_bits = 0;
    CK(cudaDeviceGetAttribute(&clk_khz, cudaDevAttrClockRate, 0));
    CK(cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, 0));
    CK(cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, 0));
    printf("{\n  \"device\": \"%s\", \"cc\": \"%d.%d\", \"sms\": %d, \"l2_bytes\": %d,\n"
           "  \"sm_clock_khz\": %d, \"mem_clock_khz\": %d, \"bus_bits\": %d,\n"
           "  \"l1_smem_per_sm_bytes\": %zu, \"mem_bytes\": %zu,\n  \"latency\": [\n",
           prop.name, prop.major, prop.minor, prop.multiProcessorCount, prop.l2CacheSize, clk_khz,
           mem_khz, bus_bits, prop.sharedMemPerMultiprocessor, prop.totalGlobalMem);

    const size_t K = 1024, M = K * K, G = K * M;
    const size_t maxfp = 2 * G;
    uint32_t *buf, *d_nxt, *d_out;
    long long *d_cyc;
    CK(cudaMalloc(&buf, maxfp));
    CK(cudaMalloc(&d_nxt, (maxfp / 128) * sizeof(uint32_t)));
    CK(cudaMalloc(&d_out, 64));
    CK(cudaMalloc(&d_cyc, 64));
    std::vector<point> pts;
    /* 28, 56, 80 and 96 MB place the H200's 60 MB L2 (its near partition and its end) */
    const size_t ca_fp[] = {4 * K,  16 * K, 64 * K, 128 * K, 192 * K, 256 * K, 512 * K, 1 * M,
                            4 * M,  16 * M, 24 * M, 28 * M,  32 * M,  40 * M,  48 * M,  56 * M,
                            64 * M, 80 * M, 96 * M, 128 * M, 512 * M, 2 * G};
    for (size_t f : ca_fp) pts.push_back({"ca", false, false, f, 128, f <= 56 * M ? 65536 : 32768});
    const size_t cg_fp[] = {4 * K, 1 * M, 16 * M, 32 * M, 128 * M, 512 * M, 2 * G};
    for (size_t f : cg_fp) pts.push_back({"cg", true, false, f, 128, f <= 56 * M ? 65536 : 32768});
    /* stride 32 in address order: a 128 B line's four sectors in turn (sector hit path) */
    pts.push_back({"ca-seq", false, true, 4 * K, 32, 65536});
    /* address order over DRAM: consecutive lines share DRAM rows (row-hit latency) */
    pts.push_back({"cg-seq", true, true, 2 * G, 128, 32768});
    pts.push_back({"cg-seq", true, true, 2 * G, 4096, 32768});
    /* random over 2 GB at page-size strides: every load a new DRAM row, TLB misses */
    pts.push_back({"cg", true, false, 2 * G, 4096, 32768});
    bool first = true;
    for (const point &p : pts) {
        run_point(buf, d_nxt, d_out, d_cyc, p, first);
        first = false;
    }
    printf("\n  ],\n");

    { /* loaded latency over the last chain built: 2 GB, 4 KB stride -> rebuild at 128 B */
        const uint32_t n = (uint32_t)(maxfp / 128), sw = 128 / 4;
        const std::vector<uint32_t> order = build_chain(buf, d_nxt, n, sw, false);
        const int maxw = 4224 * 32; /* 4224: 32 resident blocks on each of 132 SMs */
        uint32_t *d_starts, *d_outs;
        long long *d_cycs;
        CK(cudaMalloc(&d_starts, maxw * sizeof(uint32_t)));
        CK(cudaMalloc(&d_outs, maxw * sizeof(uint32_t)));
        CK(cudaMalloc(&d_cycs, maxw * sizeof(long long)));
        std::vector<long long> cy(maxw);
        printf("  \"loaded\": [\n");
        /* warps evenly spaced along the cycle (no chain runs into another's recent path), each
         * count at its own offset so that no run starts where an earlier one went; one launch
         * each: a repeat would find its chains in the L2 */
        const int cfg[][2] = {{4224, 32}, {4224, 16}, {4224, 8}, {4224, 4}, {4224, 2}, {4224, 1},
                              {2112, 1},  {1056, 1},  {528, 1},  {132, 1},  {33, 1},   {1, 1}};
        bool f1 = true;
        for (const auto &wl : cfg) {
            const int w = wl[0], lanes = wl[1], nc = w * lanes;
            /* a chain's path stays clear of the next chain's start */
            const int iters = (int)(n / (uint32_t)nc < 1024 ? n / (uint32_t)nc : 1024);
            std::vector<uint32_t> st(nc);
            const uint64_t off = (uint64_t)nc * 2654435761u % n;
            for (int b = 0; b < nc; b++)
                st[b] = order[(off + (uint64_t)b * (n / (uint32_t)nc)) % n] * sw;
            CK(cudaMemcpy(d_starts, st.data(), nc * sizeof(uint32_t), cudaMemcpyHostToDevice));
            double ms = best_ms(
                [&] { chase_many<<<w, 32>>>(buf, d_starts, lanes, iters, d_outs, d_cycs); }, 1);
            CK(cudaMemcpy(cy.data(), d_cycs, nc * sizeof(long long), cudaMemcpyDeviceToHost));
            double sum = 0;
            for (int b = 0; b < nc; b++) sum += (double)cy[b];
            printf("%s    {\"warps\": %d, \"lanes\": %d, \"loads_per_lane\": %d, "
                   "\"cycles_per_load\": %.1f, \"gloads_per_s\": %.3f}",
                   f1 ? "" : ",\n", w, lanes, iters, sum / nc / iters,
                   (double)nc * iters / ms / 1e6);
            f1 = false;
        }
        printf("\n  ],\n");
    }

    { /* shared memory and dependent arithmetic */
        const uint32_t n = 1024;
        std::vector<uint32_t> perm(n), nxt(n);
        for (uint32_t i = 0; i < n; i++) perm[i] = i;
        for (uint32_t i = n - 1; i > 0; i--) {
            uint32_t k = (uint32_t)(rng_next() % i), t = perm[i];
            perm[i] = perm[k];
            perm[k] = t;
        }
        for (uint32_t i = 0; i < n; i++) nxt[perm[i]] = perm[(i + 1) % n];
        CK(cudaMemcpy(d_nxt, nxt.data(), n * sizeof(uint32_t), cudaMemcpyHostToDevice));
        const int iters = 65536;
        long long cyc[3];
        chase_smem<<<1, 1>>>(d_nxt, n, iters, d_out, d_cyc);
        CK(cudaDeviceSynchronize());
        CK(cudaMemcpy(cyc, d_cyc, sizeof(long long), cudaMemcpyDeviceToHost));
        printf("  \"smem_cycles_per_load\": %.1f,\n", (double)cyc[0] / iters);
        dep_ops<<<1, 32>>>(iters, 1.0f, 1.0, d_out, d_cyc);
        CK(cudaDeviceSynchronize());
        CK(cudaMemcpy(cyc, d_cyc, sizeof cyc, cudaMemcpyDeviceToHost));
        printf("  \"dependent_cycles\": {\"ffma\": %.2f, \"imad\": %.2f, \"dfma\": %.2f},\n",
               (double)cyc[0] / (8.0 * iters), (double)cyc[1] / (8.0 * iters),
               (double)cyc[2] / (8.0 * iters));
    }

    /* bandwidth over the 2 GB buffer and a second one */
    uint4 *b2;
    CK(cudaMalloc(&b2, maxfp));
    size_t n = maxfp / sizeof(uint4);
    int grid = prop.multiProcessorCount * 8;
    CK(cudaMemset(buf, 0x5a, maxfp));
    double rd = best_ms([&] { bw_read<<<grid, 512>>>((const uint4 *)buf, n, d_out); }, 7);
    double wr = best_ms([&] { bw_write<<<grid, 512>>>(b2, n); }, 7);
    double cp = best_ms([&] { bw_copy<<<grid, 512>>>(b2, (const uint4 *)buf, n / 2); }, 7);
    CK(cudaGetLastError());
    double peak = 2.0 * mem_khz * 1e3 * (bus_bits / 8) / 1e9; /* DDR: two transfers per clock */
    printf("  \"bandwidth_gbps\": {\"read\": %.1f, \"write\": %.1f, \"copy_rw\": %.1f, "
           "\"peak_from_clocks\": %.1f}\n}\n",
           maxfp / rd / 1e6, maxfp / wr / 1e6, maxfp / cp / 1e6, peak);
    return 0;
}
