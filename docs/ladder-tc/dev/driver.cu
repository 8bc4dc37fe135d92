/* driver.cu - development driver for the tensor-core ladder (kernels/ladder-tc): loads
 * each configuration's cubin (built by build.sh with the -D macros the profile gives),
 * launches it as the harness will (grid, block, dynamic shared memory, clusters, TMA
 * tensor maps encoded with cuTensorMapEncodeTiled from `tma(X, inner, outer, swizzle)`
 * arguments), checks it against cuBLAS with FP32 output on random 16-bit inputs
 * (C poisoned with NaN, guard zones around C), and times it against cuBLAS in the same
 * dtype (cold L2: a 256 MiB memset before every launch; CUDA events; median).
 *
 * driver MANIFEST [--only NAME | --prefix P,...] [--dtype bf16|f16] [--check SIZES]
 *        [--bench SIZES] [--reps N] [--cublas] [--naive-ref] [--csv FILE] [--seed S]
 * --naive-ref computes the reference with a plain kernel instead of cuBLAS.
 * SIZES: comma-separated N or MxNxK. Writes one CSV row per configuration, dtype and
 * size: name,dtype,M,N,K,status,rel_err,nonfinite,guard,ms,tflops,reps. */

#include <cuda.h>
#include <cuda_runtime.h>
#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

static void die(const char *what, const char *msg, const char *file, int line)
{
    fprintf(stderr, "%s:%d: %s failed: %s\n", file, line, what, msg);
    exit(1);
}
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) die(#x, cudaGetErrorString(e_), __FILE__, __LINE__); } while (0)
#define CU(x) do { CUresult r_ = (x); if (r_ != CUDA_SUCCESS) { const char *s_ = "?"; cuGetErrorString(r_, &s_); die(#x, s_, __FILE__, __LINE__); } } while (0)
#define CB(x) do { cublasStatus_t b_ = (x); if (b_ != CUBLAS_STATUS_SUCCESS) die(#x, cublasGetStatusString(b_), __FILE__, __LINE__); } while (0)

struct Variant {
    std::string name, dtype, cubin, function, grid, restrict_, args;
    int threads = 0, bm = 0, bn = 0, cluster = 1, smem = 0;
};

struct Size {
    long M, N, K;
};

static std::vector<std::string> split(const std::string &s, char sep)
{
    std::vector<std::string> out;
    std::string cur;
    int depth = 0;
    for (char c : s) {
        if (c == '(')
            depth++;
        if (c == ')')
            depth--;
        if (c == sep && depth == 0) {
            out.push_back(cur);
            cur.clear();
        } else {
            cur += c;
        }
    }
    out.push_back(cur);
    return out;
}

static std::string trim(const std::string &s)
{
    size_t a = s.find_first_not_of(" \t\r\n"), b = s.find_last_not_of(" \t\r\n");
    return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

static std::vector<Size> parse_sizes(const char *arg)
{
    std::vector<Size> out;
    for (auto &t : split(arg, ',')) {
        long m, n, k;
        if (sscanf(t.c_str(), "%ldx%ldx%ld", &m, &n, &k) == 3)
            out.push_back({m, n, k});
        else if (sscanf(t.c_str(), "%ld", &m) == 1)
            out.push_back({m, m, m});
        else {
            fprintf(stderr, "bad size '%s'\n", t.c_str());
            exit(2);
        }
    }
    return out;
}

static std::vector<Variant> read_manifest(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        perror(path);
        exit(2);
    }
    std::vector<Variant> out;
    char line[4096];
    while (fgets(line, sizeof line, f)) {
        auto c = split(trim(line), '\t');
        if (c.size() < 12)
            continue;
        Variant v;
        v.name = c[0];
        v.dtype = c[1];
        v.cubin = c[2];
        v.function = c[3];
        v.threads = atoi(c[4].c_str());
        v.grid = c[5];
        v.bm = atoi(c[6].c_str());
        v.bn = atoi(c[7].c_str());
        v.cluster = atoi(c[8].c_str());
        v.smem = atoi(c[9].c_str());
        v.restrict_ = c[10];
        v.args = c[11];
        out.push_back(v);
    }
    fclose(f);
    return out;
}

/* ---- device helpers: inputs, comparison, guard zones ---- */

__device__ __forceinline__ uint64_t mix64(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

template <class T> __global__ void fill_uniform(T *p, size_t n, uint64_t seed)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        float u = (float)(mix64(i ^ (seed << 40) ^ seed) >> 40) * (1.0f / 16777216.0f); /* [0, 1) */
        p[i] = T(2.f * u - 1.f);
    }
}

template <class T> __global__ void compare(const T *c, const float *ref, size_t n, unsigned *out)
{
    float md = 0.f, mr = 0.f;
    unsigned bad = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        float v = (float)c[i], r = ref[i];
        if (!isfinite(v))
            bad++;
        else
            md = fmaxf(md, fabsf(v - r));
        mr = fmaxf(mr, fabsf(r));
    }
    for (int o = 16; o; o >>= 1) {
        md = fmaxf(md, __shfl_xor_sync(~0u, md, o));
        mr = fmaxf(mr, __shfl_xor_sync(~0u, mr, o));
        bad += __shfl_xor_sync(~0u, bad, o);
    }
    if (threadIdx.x % 32 == 0) {
        atomicMax(&out[0], __float_as_uint(md));
        atomicMax(&out[1], __float_as_uint(mr));
        atomicAdd(&out[2], bad);
    }
}

/* The reference without cuBLAS (for the sanitizer runs, whose racecheck failed inside
 * cuBLAS's kernels): one thread per output, FP32 sums. */
template <class T> __global__ void ref_naive(const T *A, const T *B, float *C, long M, long N, long K)
{
    long col = blockIdx.x * (long)blockDim.x + threadIdx.x, row = blockIdx.y;
    if (col >= N)
        return;
    float acc = 0.f;
    for (long k = 0; k < K; ++k)
        acc += (float)A[row * K + k] * (float)B[k * N + col];
    C[row * N + col] = acc;
}

__global__ void count_unpoisoned(const unsigned short *p, size_t n, unsigned *out)
{
    unsigned bad = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        bad += p[i] != 0xFFFF;
    atomicAdd(out, bad);
}

/* ---- the run ---- */

static const size_t GUARD = 32768; /* elements of poison before and after C */
static const size_t FLUSH_BYTES = 256ull << 20;

struct Ctx {
    int sm_count = 0;
    cublasHandle_t blas;
    void *flush = nullptr;
    unsigned *dres = nullptr;
    cudaEvent_t ev[64];
    int reps = 20;
    bool naive_ref = false;
    FILE *csv = nullptr;
};

struct Buffers {
    void *A = nullptr, *B = nullptr, *Cbase = nullptr;
    float *ref = nullptr;
    Size s{0, 0, 0};
    void *C() const { return (char *)Cbase + GUARD * 2; }
};

static cudaDataType_t cu_type(const std::string &dt)
{
    return dt == "bf16" ? CUDA_R_16BF : CUDA_R_16F;
}

static void cublas_gemm(Ctx &x, const std::string &dt, const Buffers &b, void *C, cudaDataType_t ctype)
{
    const float one = 1.f, zero = 0.f;
    /* row-major C = A B is column-major C^T = B^T A^T */
    CB(cublasGemmEx(x.blas, CUBLAS_OP_N, CUBLAS_OP_N, (int)b.s.N, (int)b.s.M, (int)b.s.K, &one, b.B, cu_type(dt),
                    (int)b.s.N, b.A, cu_type(dt), (int)b.s.K, &zero, C, ctype, (int)b.s.N, CUBLAS_COMPUTE_32F,
                    CUBLAS_GEMM_DEFAULT));
}

static void setup_size(Ctx &x, Buffers &b, const std::string &dt, Size s, uint64_t seed)
{
    CK(cudaFree(b.A));
    CK(cudaFree(b.B));
    CK(cudaFree(b.Cbase));
    CK(cudaFree(b.ref));
    b.s = s;
    CK(cudaMalloc(&b.A, s.M * s.K * 2));
    CK(cudaMalloc(&b.B, s.K * s.N * 2));
    CK(cudaMalloc(&b.Cbase, (s.M * s.N + 2 * GUARD) * 2));
    CK(cudaMalloc(&b.ref, s.M * s.N * 4));
    if (dt == "bf16") {
        fill_uniform<<<1024, 256>>>((__nv_bfloat16 *)b.A, s.M * s.K, seed * 2 + 1);
        fill_uniform<<<1024, 256>>>((__nv_bfloat16 *)b.B, s.K * s.N, seed * 2 + 2);
    } else {
        fill_uniform<<<1024, 256>>>((__half *)b.A, s.M * s.K, seed * 2 + 1);
        fill_uniform<<<1024, 256>>>((__half *)b.B, s.K * s.N, seed * 2 + 2);
    }
    CK(cudaGetLastError());
    if (x.naive_ref) {
        dim3 g((unsigned)((s.N + 127) / 128), (unsigned)s.M);
        if (dt == "bf16")
            ref_naive<<<g, 128>>>((const __nv_bfloat16 *)b.A, (const __nv_bfloat16 *)b.B, b.ref, s.M, s.N, s.K);
        else
            ref_naive<<<g, 128>>>((const __half *)b.A, (const __half *)b.B, b.ref, s.M, s.N, s.K);
        CK(cudaGetLastError());
    } else {
        cublas_gemm(x, dt, b, b.ref, CUDA_R_32F);
    }
    CK(cudaDeviceSynchronize());
}

struct Loaded {
    CUmodule mod = nullptr;
    CUfunction fn = nullptr;
};

static bool load_variant(const Variant &v, Loaded &l, std::string &err)
{
    CUresult r = cuModuleLoad(&l.mod, v.cubin.c_str());
    if (r != CUDA_SUCCESS) {
        const char *s = "?";
        cuGetErrorString(r, &s);
        err = std::string("cuModuleLoad: ") + s;
        return false;
    }
    CU(cuModuleGetFunction(&l.fn, l.mod, v.function.c_str()));
    if (v.smem > 48 * 1024)
        CU(cuFuncSetAttribute(l.fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, v.smem));
    return true;
}

struct Launch {
    dim3 grid, block;
    std::vector<std::vector<unsigned char>> store;
    std::vector<void *> params;
    CUtensorMap maps[4]; /* 64-byte aligned by its type */
    int nmaps = 0;
};

static bool encode_map(CUtensorMap *m, const std::string &dt, void *ptr, long rows, long cols, int inner, int outer,
                       int swz, std::string &err)
{
    cuuint64_t dims[2] = {(cuuint64_t)cols, (cuuint64_t)rows};
    cuuint64_t strides[1] = {(cuuint64_t)cols * 2};
    cuuint32_t box[2] = {(cuuint32_t)inner, (cuuint32_t)outer};
    cuuint32_t es[2] = {1, 1};
    CUtensorMapSwizzle sw = swz == 128 ? CU_TENSOR_MAP_SWIZZLE_128B
                            : swz == 64 ? CU_TENSOR_MAP_SWIZZLE_64B
                            : swz == 32 ? CU_TENSOR_MAP_SWIZZLE_32B
                                        : CU_TENSOR_MAP_SWIZZLE_NONE;
    CUresult r = cuTensorMapEncodeTiled(m, dt == "bf16" ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 : CU_TENSOR_MAP_DATA_TYPE_FLOAT16,
                                        2, ptr, dims, strides, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE, sw,
                                        CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS) {
        const char *s = "?";
        cuGetErrorString(r, &s);
        err = std::string("cuTensorMapEncodeTiled: ") + s;
        return false;
    }
    return true;
}

static bool build_launch(Ctx &x, const Variant &v, const Buffers &b, Launch &L, std::string &err)
{
    const Size s = b.s;
    L.block = dim3(v.threads);
    if (v.grid == "persistent") {
        long units = ((s.M + v.bm - 1) / v.bm + v.cluster - 1) / v.cluster * ((s.N + v.bn - 1) / v.bn);
        long gx = std::min((long)(x.sm_count / v.cluster * v.cluster), v.cluster * units);
        L.grid = dim3((unsigned)gx);
    } else {
        L.grid = dim3((unsigned)((s.N + v.bn - 1) / v.bn), (unsigned)((s.M + v.bm - 1) / v.bm));
    }
    for (auto &a0 : split(v.args, ',')) {
        std::string a = trim(a0);
        std::vector<unsigned char> buf;
        auto put = [&](const void *p, size_t n) { buf.assign((const unsigned char *)p, (const unsigned char *)p + n); };
        if (a == "A" || a == "B" || a == "C") {
            void *p = a == "A" ? b.A : a == "B" ? b.B : b.C();
            put(&p, sizeof p);
        } else if (a == "M" || a == "N" || a == "K") {
            int val = (int)(a == "M" ? s.M : a == "N" ? s.N : s.K);
            put(&val, sizeof val);
        } else if (a.rfind("tma(", 0) == 0) {
            auto f = split(a.substr(4, a.size() - 5), ',');
            std::string X = trim(f[0]);
            int inner = atoi(f[1].c_str()), outer = atoi(f[2].c_str()), swz = atoi(f[3].c_str());
            CUtensorMap *m = &L.maps[L.nmaps++];
            bool ok = X == "A"   ? encode_map(m, v.dtype, b.A, s.M, s.K, inner, outer, swz, err)
                      : X == "B" ? encode_map(m, v.dtype, b.B, s.K, s.N, inner, outer, swz, err)
                                 : encode_map(m, v.dtype, b.C(), s.M, s.N, inner, outer, swz, err);
            if (!ok)
                return false;
            continue;
        } else {
            err = "unknown argument " + a;
            return false;
        }
        L.store.push_back(buf);
    }
    /* parameters point into `store` (complete now) or at the maps, in argument order */
    size_t si = 0;
    int mi = 0;
    for (auto &a0 : split(v.args, ',')) {
        if (trim(a0).rfind("tma(", 0) == 0)
            L.params.push_back(&L.maps[mi++]);
        else
            L.params.push_back(L.store[si++].data());
    }
    return true;
}

static CUresult launch(const Variant &v, Loaded &l, Launch &L, cudaStream_t st)
{
    CUlaunchConfig cfg = {};
    cfg.gridDimX = L.grid.x;
    cfg.gridDimY = L.grid.y;
    cfg.gridDimZ = 1;
    cfg.blockDimX = L.block.x;
    cfg.blockDimY = 1;
    cfg.blockDimZ = 1;
    cfg.sharedMemBytes = v.smem;
    cfg.hStream = (CUstream)st;
    CUlaunchAttribute attr[1];
    if (v.cluster > 1) {
        attr[0].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
        attr[0].value.clusterDim.x = v.cluster;
        attr[0].value.clusterDim.y = 1;
        attr[0].value.clusterDim.z = 1;
        cfg.attrs = attr;
        cfg.numAttrs = 1;
    }
    return cuLaunchKernelEx(&cfg, l.fn, L.params.data(), nullptr);
}

static int max_active_clusters(const Variant &v, Loaded &l, Launch &L)
{
    CUlaunchConfig cfg = {};
    cfg.gridDimX = L.grid.x;
    cfg.gridDimY = L.grid.y;
    cfg.gridDimZ = 1;
    cfg.blockDimX = L.block.x;
    cfg.blockDimY = cfg.blockDimZ = 1;
    cfg.sharedMemBytes = v.smem;
    CUlaunchAttribute attr[1];
    attr[0].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    attr[0].value.clusterDim.x = v.cluster;
    attr[0].value.clusterDim.y = 1;
    attr[0].value.clusterDim.z = 1;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    int n = -1;
    if (cuOccupancyMaxActiveClusters(&n, l.fn, &cfg) != CUDA_SUCCESS)
        return -1;
    return n;
}

static double median(std::vector<float> t)
{
    std::sort(t.begin(), t.end());
    size_t n = t.size();
    return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

/* Times `fn` (which enqueues one launch) `reps` times after `warm` untimed ones, L2 flushed
 * before each; returns the median in ms, or a negative value on a launch error. */
template <class F> static double time_it(Ctx &x, F fn, int warm)
{
    for (int i = 0; i < warm; ++i) {
        CK(cudaMemsetAsync(x.flush, i & 0xff, FLUSH_BYTES));
        if (!fn())
            return -1;
    }
    std::vector<float> t;
    for (int i = 0; i < x.reps; ++i) {
        CK(cudaMemsetAsync(x.flush, (i + 7) & 0xff, FLUSH_BYTES));
        CK(cudaEventRecord(x.ev[2 * i]));
        if (!fn())
            return -1;
        CK(cudaEventRecord(x.ev[2 * i + 1]));
    }
    if (cudaDeviceSynchronize() != cudaSuccess)
        return -1;
    for (int i = 0; i < x.reps; ++i) {
        float ms;
        CK(cudaEventElapsedTime(&ms, x.ev[2 * i], x.ev[2 * i + 1]));
        t.push_back(ms);
    }
    return median(t);
}

static void row(Ctx &x, const std::string &name, const std::string &dt, Size s, const char *status, double err,
                unsigned nonfinite, unsigned guard, double ms)
{
    double tf = ms > 0 ? 2.0 * s.M * s.N * s.K / (ms * 1e-3) / 1e12 : 0;
    char line[512];
    snprintf(line, sizeof line, "%s,%s,%ld,%ld,%ld,%s,%.3e,%u,%u,%.5f,%.1f,%d\n", name.c_str(), dt.c_str(), s.M, s.N,
             s.K, status, err, nonfinite, guard, ms, tf, ms > 0 ? x.reps : 0);
    fputs(line, stdout);
    if (x.csv) {
        fputs(line, x.csv);
        fflush(x.csv);
    }
}

static void run_variant(Ctx &x, const Variant &v, Loaded &l, const Buffers &b, bool bench, char &printed_occ)
{
    const Size s = b.s;
    if (v.restrict_ == "k8n8" && (s.K % 8 || s.N % 8)) {
        row(x, v.name, v.dtype, s, "restricted", 0, 0, 0, 0);
        return;
    }
    Launch L;
    std::string err;
    if (!build_launch(x, v, b, L, err)) {
        fprintf(stderr, "%s: %s\n", v.name.c_str(), err.c_str());
        row(x, v.name, v.dtype, s, "launch_error", 0, 0, 0, 0);
        return;
    }
    if (v.cluster > 1 && !printed_occ) {
        printed_occ = 1;
        fprintf(stderr, "%s: max active clusters of %d: %d (grid %u blocks)\n", v.name.c_str(), v.cluster,
                max_active_clusters(v, l, L), L.grid.x);
    }
    CK(cudaMemset(b.Cbase, 0xFF, (s.M * s.N + 2 * GUARD) * 2));
    CUresult r = launch(v, l, L, 0);
    cudaError_t e = cudaDeviceSynchronize();
    if (r != CUDA_SUCCESS || e != cudaSuccess) {
        const char *msg = "?";
        if (r != CUDA_SUCCESS)
            cuGetErrorString(r, &msg);
        else
            msg = cudaGetErrorString(e);
        fprintf(stderr, "%s %s %ldx%ldx%ld: launch failed: %s\n", v.name.c_str(), v.dtype.c_str(), s.M, s.N, s.K, msg);
        row(x, v.name, v.dtype, s, "launch_error", 0, 0, 0, 0);
        fflush(stdout);
        exit(3); /* the context is gone */
    }
    CK(cudaMemset(x.dres, 0, 16));
    if (v.dtype == "bf16")
        compare<<<1024, 256>>>((const __nv_bfloat16 *)b.C(), b.ref, s.M * s.N, x.dres);
    else
        compare<<<1024, 256>>>((const __half *)b.C(), b.ref, s.M * s.N, x.dres);
    count_unpoisoned<<<64, 256>>>((const unsigned short *)b.Cbase, GUARD, x.dres + 3);
    count_unpoisoned<<<64, 256>>>((const unsigned short *)b.C() + s.M * s.N, GUARD, x.dres + 3);
    unsigned h[4];
    CK(cudaMemcpy(h, x.dres, 16, cudaMemcpyDeviceToHost));
    float md, mr;
    memcpy(&md, &h[0], 4);
    memcpy(&mr, &h[1], 4);
    double rel = mr > 0 ? md / mr : md;
    double tol = v.dtype == "bf16" ? 8e-3 : 2e-3;
    bool ok = h[2] == 0 && h[3] == 0 && rel <= tol;
    double ms = 0;
    if (ok && bench) {
        ms = time_it(x, [&] { return launch(v, l, L, 0) == CUDA_SUCCESS; }, 2);
        if (ms < 0) {
            row(x, v.name, v.dtype, s, "launch_error", rel, h[2], h[3], 0);
            exit(3);
        }
    }
    row(x, v.name, v.dtype, s, ok ? "ok" : "FAIL", rel, h[2], h[3], ms);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: driver MANIFEST [--only NAME | --prefix P,...] [--dtype bf16|f16] [--check SIZES] [--bench SIZES] "
                        "[--reps N] [--cublas] [--naive-ref] [--csv FILE] [--seed S]\n");
        return 2;
    }
    std::vector<Variant> all = read_manifest(argv[1]);
    std::string only, dtype;
    std::vector<std::string> prefixes;
    std::vector<Size> check, bench;
    bool do_cublas = false;
    uint64_t seed = 1;
    Ctx x;
    for (int i = 2; i < argc; ++i) {
        std::string a = argv[i];
        auto next = [&]() -> const char * {
            if (i + 1 >= argc) {
                fprintf(stderr, "%s needs a value\n", a.c_str());
                exit(2);
            }
            return argv[++i];
        };
        if (a == "--only")
            only = next();
        else if (a == "--prefix")
            prefixes = split(next(), ',');
        else if (a == "--dtype")
            dtype = next();
        else if (a == "--check")
            check = parse_sizes(next());
        else if (a == "--bench")
            bench = parse_sizes(next());
        else if (a == "--reps")
            x.reps = std::max(1, std::min(32, atoi(next())));
        else if (a == "--cublas")
            do_cublas = true;
        else if (a == "--naive-ref")
            x.naive_ref = true;
        else if (a == "--csv") {
            x.csv = fopen(next(), "a");
            if (!x.csv) {
                perror(argv[i]);
                return 2;
            }
        } else if (a == "--seed")
            seed = strtoull(next(), nullptr, 10);
        else {
            fprintf(stderr, "unknown option %s\n", a.c_str());
            return 2;
        }
    }
    CK(cudaSetDevice(0));
    CK(cudaFree(0));
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    x.sm_count = prop.multiProcessorCount;
    fprintf(stderr, "device: %s, %d SMs, L2 %d MB\n", prop.name, x.sm_count, prop.l2CacheSize >> 20);
    CB(cublasCreate(&x.blas));
    CK(cudaMalloc(&x.flush, FLUSH_BYTES));
    CK(cudaMalloc(&x.dres, 16));
    for (auto &e : x.ev)
        CK(cudaEventCreate(&e));

    std::vector<std::string> dts = dtype.empty() ? std::vector<std::string>{"bf16", "f16"} : std::vector<std::string>{dtype};
    for (auto &dt : dts) {
        std::vector<Variant> sel;
        for (auto &v : all)
            if (v.dtype == dt && (only.empty() || v.name == only)) {
                bool pick = prefixes.empty();
                for (auto &p : prefixes)
                    pick = pick || (!p.empty() && v.name.rfind(p, 0) == 0);
                if (pick)
                    sel.push_back(v);
            }
        std::vector<Loaded> mods(sel.size());
        std::vector<char> occ(sel.size(), 0), usable(sel.size(), 1);
        for (size_t i = 0; i < sel.size(); ++i) {
            std::string err;
            if (!load_variant(sel[i], mods[i], err)) {
                fprintf(stderr, "%s %s: %s\n", sel[i].name.c_str(), dt.c_str(), err.c_str());
                usable[i] = false;
            }
        }
        std::vector<std::pair<Size, bool>> sizes;
        for (auto &s : check)
            sizes.push_back({s, false});
        for (auto &s : bench)
            sizes.push_back({s, true});
        Buffers b;
        int si = 0;
        for (auto &sp : sizes) {
            setup_size(x, b, dt, sp.first, seed * 1000 + si++);
            for (size_t i = 0; i < sel.size(); ++i)
                if (usable[i])
                    run_variant(x, sel[i], mods[i], b, sp.second, occ[i]);
                else
                    row(x, sel[i].name, dt, sp.first, "load_error", 0, 0, 0, 0);
            if (do_cublas && sp.second) {
                void *C = b.C();
                double ms = time_it(x, [&] { cublas_gemm(x, dt, b, C, cu_type(dt)); return true; }, 2);
                row(x, "cublas", dt, sp.first, "ok", 0, 0, 0, ms);
            }
        }
    }
    return 0;
}
