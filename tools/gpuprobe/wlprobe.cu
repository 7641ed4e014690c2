/* wlprobe: PolyBench/GPU's matrix-vector and matrix-matrix kernels, written here from their
 * algorithms with the CUDA versions' thread mapping (one thread per output element; 256 x 1
 * blocks for the matrix-vector kernels, 32 x 8 for the matrix-matrix ones; accumulators in
 * global memory, no restrict), so that a real GPU's memory counters (Nsight Compute) can be set
 * beside warpsim's built-in models of the same kernels (src/workload/kernels/pb_mv.c, pb_mm.c).
 * Not part of the CMake build (CI has no CUDA); docs/calibration.md says how it is run:
 *     nvcc -O2 -arch=native -o wlprobe tools/gpuprobe/wlprobe.cu
 *     ncu --csv --metrics ... ./wlprobe NAME N
 * Arrays are cudaMalloc'd in the order the benchmark's host code allocates them and all copied in
 * before the kernels, as warpsim's models do (under Nsight Compute, which empties the caches
 * before each kernel, the copies leave nothing in the L2). SYRK's and SYR2K's scalars here are
 * not PolyBench/GPU's (4546, 12435); no address depends on them. */
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CK(x)                                                                                      \
    do {                                                                                           \
        cudaError_t err_ = (x);                                                                    \
        if (err_ != cudaSuccess) {                                                                 \
            fprintf(stderr, "wlprobe: %s:%d: %s\n", __FILE__, __LINE__,                           \
                    cudaGetErrorString(err_));                                                     \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

/* ---- matrix-vector: thread t owns out[t] ---- */

/* out[t] += sum_k A[t][k] * v[k] (a row walk: the lanes of a warp read 32 rows) */
__global__ void mv_rows(float *out, const float *a, const float *v, int nt, int k) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t < nt)
        for (int j = 0; j < k; j++) out[t] += a[(size_t)t * k + j] * v[j];
}

/* out[t] += sum_k A[k][t] * v[k] (a column walk: the lanes read one line) */
__global__ void mv_cols(float *out, const float *a, const float *v, int nt, int k) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t < nt)
        for (int i = 0; i < k; i++) out[t] += a[(size_t)i * nt + t] * v[i];
}

/* BiCG zeroes its outputs in the kernel */
__global__ void mv_cols_zero(float *out, const float *a, const float *v, int nt, int k) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t < nt) {
        out[t] = 0;
        for (int i = 0; i < k; i++) out[t] += a[(size_t)i * nt + t] * v[i];
    }
}
__global__ void mv_rows_zero(float *out, const float *a, const float *v, int nt, int k) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t < nt) {
        out[t] = 0;
        for (int j = 0; j < k; j++) out[t] += a[(size_t)t * k + j] * v[j];
    }
}

__global__ void gesummv(const float *a, const float *b, const float *x, float *y, float *tmp,
                        int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        for (int j = 0; j < n; j++) {
            tmp[i] += a[(size_t)i * n + j] * x[j];
            y[i] += b[(size_t)i * n + j] * x[j];
        }
        y[i] = 43532.0f * tmp[i] + 12313.0f * y[i];
    }
}

/* ---- matrix-matrix: j = x, i = y ---- */

__global__ void mm(float *c, const float *a, const float *b, int n) {
    int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < n && j < n)
        for (int k = 0; k < n; k++) c[(size_t)i * n + j] += a[(size_t)i * n + k] * b[(size_t)k * n + j];
}

__global__ void syrk(const float *a, float *c, int n, int m) {
    int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < n && j < n) {
        c[(size_t)i * n + j] *= 2123.0f;
        for (int k = 0; k < m; k++)
            c[(size_t)i * n + j] += 32412.0f * a[(size_t)i * m + k] * a[(size_t)j * m + k];
    }
}

__global__ void syr2k(const float *a, const float *b, float *c, int n, int m) {
    int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < n && j < n) {
        c[(size_t)i * n + j] *= 2123.0f;
        for (int k = 0; k < m; k++)
            c[(size_t)i * n + j] += 32412.0f * a[(size_t)i * m + k] * b[(size_t)j * m + k] +
                                    32412.0f * b[(size_t)i * m + k] * a[(size_t)j * m + k];
    }
}

static float *dev(size_t n) { /* a device array of n floats, copied in from the host */
    std::vector<float> h(n);
    for (size_t i = 0; i < n; i++) h[i] = (float)((i * 7 + 3) % 101) / 101.0f;
    float *d;
    CK(cudaMalloc(&d, n * sizeof(float)));
    CK(cudaMemcpy(d, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    return d;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: wlprobe atax|bicg|mvt|gesummv|mm2|syrk|syr2k N\n");
        return 2;
    }
    const char *w = argv[1];
    const int n = atoi(argv[2]);
    const size_t nn = (size_t)n * n;
    const dim3 b1(256), g1((n + 255) / 256), b2(32, 8), g2((n + 31) / 32, (n + 7) / 8);
    if (!strcmp(w, "atax")) { /* A, x, y, tmp */
        float *a = dev(nn), *x = dev(n), *y = dev(n), *tmp = dev(n);
        mv_rows<<<g1, b1>>>(tmp, a, x, n, n);
        mv_cols<<<g1, b1>>>(y, a, tmp, n, n);
    } else if (!strcmp(w, "bicg")) { /* A, r, s, p, q */
        float *a = dev(nn), *r = dev(n), *s = dev(n), *p = dev(n), *q = dev(n);
        mv_cols_zero<<<g1, b1>>>(s, a, r, n, n);
        mv_rows_zero<<<g1, b1>>>(q, a, p, n, n);
    } else if (!strcmp(w, "mvt")) { /* a, x1, x2, y1, y2 */
        float *a = dev(nn), *x1 = dev(n), *x2 = dev(n), *y1 = dev(n), *y2 = dev(n);
        mv_rows<<<g1, b1>>>(x1, a, y1, n, n);
        mv_cols<<<g1, b1>>>(x2, a, y2, n, n);
    } else if (!strcmp(w, "gesummv")) { /* A, B, x, y, tmp */
        float *a = dev(nn), *b = dev(nn), *x = dev(n), *y = dev(n), *tmp = dev(n);
        gesummv<<<g1, b1>>>(a, b, x, y, tmp, n);
    } else if (!strcmp(w, "mm2")) { /* A, B, C, D, E */
        float *a = dev(nn), *b = dev(nn), *c = dev(nn), *d = dev(nn), *e = dev(nn);
        mm<<<g2, b2>>>(c, a, b, n);
        mm<<<g2, b2>>>(e, c, d, n);
    } else if (!strcmp(w, "syrk")) { /* a, c */
        float *a = dev(nn), *c = dev(nn);
        syrk<<<g2, b2>>>(a, c, n, n);
    } else if (!strcmp(w, "syr2k")) { /* a, b, c */
        float *a = dev(nn), *b = dev(nn), *c = dev(nn);
        syr2k<<<g2, b2>>>(a, b, c, n, n);
    } else {
        fprintf(stderr, "wlprobe: unknown workload '%s'\n", w);
        return 2;
    }
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    return 0;
}
