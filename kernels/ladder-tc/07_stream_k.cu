/* 07_stream_k.cu - tensor-core ladder step 7: step 6's persistent kernel with the work of
 * the last waves divided evenly between the blocks along k (Stream-K), sm_90a.
 *
 * What changes from step 6: step 6 deals whole tiles round-robin to its sm_count blocks.
 * At 4096 with 128 x 256 tiles that is 512 tiles, 3.88 waves of 132: the last wave leaves
 * 16 SMs idle for a quarter of the run, and Nsight Compute counts the SMs active for 94%
 * of the elapsed cycles (cuBLAS's 128 x 256 tiles have the same tail). Here:
 *  - tiles are dealt whole for all but the last one or two waves (worker w takes tiles w,
 *    w + W, ...; W = gridDim.x workers); the remaining R tiles (W <= R < 2W, or none
 *    where the tiles make whole waves) are laid end to end as R * KT k-tile iterations
 *    and cut into W equal contiguous ranges, one per worker, so every worker ends at the
 *    same time. A range is at least KT long, so a tile is cut at most once, at the
 *    boundary between workers b and b + 1, into a first piece (from k = 0, worker b) and
 *    a second (to the end, worker b + 1).
 *  - the producer and the consumers walk the same list of (tile, k range) units, so the
 *    stage ring runs on across pieces exactly as across tiles.
 *  - the two pieces of a cut tile meet in a module workspace without waiting for each
 *    other: each consumer warpgroup writes its FP32 partial sums to its slot (float4s, a
 *    warp's stores contiguous), fences, and counts itself in with an atomic; the second to
 *    arrive reads the other's partial, adds it, stores the tile through step 6's epilogue,
 *    and resets the count for the next launch. a + b == b + a: results do not depend on
 *    which arrives first.
 * What should move: SM active cycles (sm__cycles_active.avg) towards the elapsed cycles,
 * by the idle tail (a few percent where the tiles make a fraction of a wave over whole
 * waves: 4096 and 8192 at 128 x 256, 2048 at 128 x 128); DRAM and L2 traffic up slightly
 * (each cut tile moves 2 x 2 x block_m x block_n x 4 bytes of partial sums). Nothing
 * where the tiles make whole waves or less than one (then every unit is a whole tile).
 * Clusters are gone: run 1 measured no gain from B's multicast at these shapes (the
 * one-block configuration was as fast or faster), and a cut would have to fall at the
 * same k in both blocks of a cluster.
 * Measured on the H100 (docs/ladder-tc.md): the tail goes (SM active cycles = elapsed at
 * 4096) but the step is slower than step 6 wherever it cuts tiles: 80% of cuBLAS at 4096
 * against step 6's 97%, with the tensor pipe active 67% of the cycles instead of 94%, DRAM
 * reads 2.2x and consumers spinning on their full barriers (instructions +15% at 2048).
 * Workers walking ranges that start at different k no longer read the same k-slices of A
 * and B at the same time, as the waves of whole tiles do; where every unit is a whole tile
 * it runs as step 6.
 *
 * Parameters: block_m x block_n outputs per tile, block_k deep stages (a multiple of 64),
 * wg_m consumer warpgroups along M (each block_m / wg_m rows, a multiple of 64), stages,
 * group_m tile rows per group of the order. Threads: 128 * (wg_m + 1), a 1D block. Grid:
 * 1D, at most one block per SM, at most SK_MAX_WORKERS blocks (more and the kernel deals
 * whole tiles only): grid_x = min(sm_count, tiles). Dynamic shared memory: step 6's and
 * two words, stages * (block_m + block_n) * block_k * 2 + block_m * block_n * 2 + 1024 +
 * 16 * stages + 16 bytes. The workspace is a module global: 2 * SK_MAX_WORKERS slots of block_m * block_n
 * floats (36 MiB at 128 x 256) and 2 * SK_MAX_WORKERS counts, zero at load and left zero by
 * every launch that ends. Arguments: M, N, K, tma(A, 64, block_m, 128),
 * tma(B, 64, block_k, 128), tma(C, 64, block_m / wg_m, 128).
 * elem_t __half or __nv_bfloat16, FP32 accumulation, out_t = elem_t. Needs K % 8 == 0 and
 * N % 8 == 0 (TMA row pitches); any M. sm_90a. */

#include <cuda_fp16.h>
#include <cuda_bf16.h>

/* The 128-byte CUtensorMap that the harness encodes (cuTensorMapEncodeTiled), by value. */
struct __align__(64) tma_desc {
    unsigned long long opaque[16];
};

template <class T> struct tc_is_bf16 { static constexpr bool value = false; };
template <> struct tc_is_bf16<__nv_bfloat16> { static constexpr bool value = true; };
#define TC_BF16 (tc_is_bf16<elem_t>::value)

__device__ __forceinline__ unsigned smem_u32(const void *p)
{
    return (unsigned)__cvta_generic_to_shared(p);
}

__device__ __forceinline__ void mbar_init(unsigned bar, unsigned count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(bar), "r"(count) : "memory");
}

/* One arrival that also announces `bytes` of copies to come (the stage's TMA boxes). */
__device__ __forceinline__ void mbar_expect_tx(unsigned bar, unsigned bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(bar), "r"(bytes) : "memory");
}

__device__ __forceinline__ void mbar_arrive(unsigned bar)
{
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(bar) : "memory");
}

/* Waits until the phase of parity `parity` has completed. */
__device__ __forceinline__ void mbar_wait(unsigned bar, unsigned parity)
{
    unsigned done;
    do {
        asm volatile("{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
                     "selp.u32 %0, 1, 0, p;\n}\n"
                     : "=r"(done) : "r"(bar), "r"(parity) : "memory");
    } while (!done);
}

/* A 2D box of the tensor map at (c0 along the contiguous dimension, c1 along the other),
 * into shared memory at dst; its bytes complete the transaction count of bar. Boxes that
 * reach past the matrix are filled with zeros (and still count their full size). */
__device__ __forceinline__ void tma_load(unsigned dst, const tma_desc *map, int c0, int c1, unsigned bar)
{
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {%2, %3}], [%4];\n"
                 ::"r"(dst), "l"(reinterpret_cast<unsigned long long>(map)), "r"(c0), "r"(c1), "r"(bar)
                 : "memory");
}

__device__ __forceinline__ void tma_prefetch_map(const tma_desc *map)
{
    asm volatile("prefetch.tensormap [%0];\n" ::"l"(reinterpret_cast<unsigned long long>(map)) : "memory");
}

__device__ __forceinline__ void wgmma_fence()
{
    asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
}

__device__ __forceinline__ void wgmma_commit()
{
    asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
}

template <int n> __device__ __forceinline__ void wgmma_wait()
{
    asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(n) : "memory");
}

/* Shared-memory matrix descriptor, 128-byte swizzle: start address, leading and stride
 * byte offsets (each >> 4 in 14 bits), layout type 1 in bits 62-63. */
__device__ __forceinline__ unsigned long long smem_desc(unsigned addr, unsigned lbo, unsigned sbo)
{
    return (unsigned long long)((addr & 0x3FFFF) >> 4) | (unsigned long long)((lbo & 0x3FFFF) >> 4) << 16 |
           (unsigned long long)((sbo & 0x3FFFF) >> 4) << 32 | 1ull << 62;
}

__device__ __forceinline__ unsigned pack2(float a, float b)
{
    if constexpr (tc_is_bf16<out_t>::value) {
        __nv_bfloat162 v = __floats2bfloat162_rn(a, b);
        return *reinterpret_cast<unsigned *>(&v);
    } else {
        __half2 v = __floats2half2_rn(a, b);
        return *reinterpret_cast<unsigned *>(&v);
    }
}

/* wgmma.mma_async m64nNk16, FP32 accumulators d[N/2] (+=), A from a K-major descriptor, B
 * from an N-major one (imm-trans-b = 1: B is K x N row-major in global memory).
 * Accumulator layout: thread t of the warpgroup holds, for each 8 columns j,
 * d[4j + 0..1] at row 16 (t / 32) + (t % 32) / 4, columns 8j + 2 (t % 4) + 0..1, and
 * d[4j + 2..3] eight rows below. Generated by docs/ladder-tc/dev/gen_wgmma.py. */
__device__ __forceinline__ void wgmma_n64(float (&d)[32], unsigned long long da, unsigned long long db)
{
    if constexpr (TC_BF16)
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {"
        "%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16,%17,%18,%19,%20,%21,%22,%23,"
        "%24,%25,%26,%27,%28,%29,%30,%31"
        "}, %32, %33, p, 1, 1, 0, 1;\n}\n"
        :
        "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]),
        "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
        : "l"(da), "l"(db), "n"(1));
    else
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {"
        "%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16,%17,%18,%19,%20,%21,%22,%23,"
        "%24,%25,%26,%27,%28,%29,%30,%31"
        "}, %32, %33, p, 1, 1, 0, 1;\n}\n"
        :
        "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]),
        "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
        : "l"(da), "l"(db), "n"(1));
}

__device__ __forceinline__ void wgmma_n128(float (&d)[64], unsigned long long da, unsigned long long db)
{
    if constexpr (TC_BF16)
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {"
        "%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16,%17,%18,%19,%20,%21,%22,%23,"
        "%24,%25,%26,%27,%28,%29,%30,%31,%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47,"
        "%48,%49,%50,%51,%52,%53,%54,%55,%56,%57,%58,%59,%60,%61,%62,%63"
        "}, %64, %65, p, 1, 1, 0, 1;\n}\n"
        :
        "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]),
        "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]),
        "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
        "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]),
        "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
        : "l"(da), "l"(db), "n"(1));
    else
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {"
        "%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16,%17,%18,%19,%20,%21,%22,%23,"
        "%24,%25,%26,%27,%28,%29,%30,%31,%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47,"
        "%48,%49,%50,%51,%52,%53,%54,%55,%56,%57,%58,%59,%60,%61,%62,%63"
        "}, %64, %65, p, 1, 1, 0, 1;\n}\n"
        :
        "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]),
        "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]),
        "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
        "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]),
        "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
        : "l"(da), "l"(db), "n"(1));
}

__device__ __forceinline__ void wgmma_n192(float (&d)[96], unsigned long long da, unsigned long long db)
{
    if constexpr (TC_BF16)
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %98, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n192k16.f32.bf16.bf16 {"
        "%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16,%17,%18,%19,%20,%21,%22,%23,"
        "%24,%25,%26,%27,%28,%29,%30,%31,%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47,"
        "%48,%49,%50,%51,%52,%53,%54,%55,%56,%57,%58,%59,%60,%61,%62,%63,%64,%65,%66,%67,%68,%69,%70,%71,"
        "%72,%73,%74,%75,%76,%77,%78,%79,%80,%81,%82,%83,%84,%85,%86,%87,%88,%89,%90,%91,%92,%93,%94,%95"
        "}, %96, %97, p, 1, 1, 0, 1;\n}\n"
        :
        "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]),
        "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]),
        "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
        "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]),
        "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
        "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]),
        "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95])
        : "l"(da), "l"(db), "n"(1));
    else
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %98, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n192k16.f32.f16.f16 {"
        "%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16,%17,%18,%19,%20,%21,%22,%23,"
        "%24,%25,%26,%27,%28,%29,%30,%31,%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47,"
        "%48,%49,%50,%51,%52,%53,%54,%55,%56,%57,%58,%59,%60,%61,%62,%63,%64,%65,%66,%67,%68,%69,%70,%71,"
        "%72,%73,%74,%75,%76,%77,%78,%79,%80,%81,%82,%83,%84,%85,%86,%87,%88,%89,%90,%91,%92,%93,%94,%95"
        "}, %96, %97, p, 1, 1, 0, 1;\n}\n"
        :
        "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]),
        "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]),
        "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
        "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]),
        "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
        "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]),
        "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95])
        : "l"(da), "l"(db), "n"(1));
}

__device__ __forceinline__ void wgmma_n256(float (&d)[128], unsigned long long da, unsigned long long db)
{
    if constexpr (TC_BF16)
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 {"
        "%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16,%17,%18,%19,%20,%21,%22,%23,"
        "%24,%25,%26,%27,%28,%29,%30,%31,%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47,"
        "%48,%49,%50,%51,%52,%53,%54,%55,%56,%57,%58,%59,%60,%61,%62,%63,%64,%65,%66,%67,%68,%69,%70,%71,"
        "%72,%73,%74,%75,%76,%77,%78,%79,%80,%81,%82,%83,%84,%85,%86,%87,%88,%89,%90,%91,%92,%93,%94,%95,"
        "%96,%97,%98,%99,%100,%101,%102,%103,%104,%105,%106,%107,%108,%109,%110,%111,%112,%113,%114,%115,%116,%117,%118,%119,"
        "%120,%121,%122,%123,%124,%125,%126,%127"
        "}, %128, %129, p, 1, 1, 0, 1;\n}\n"
        :
        "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]),
        "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]),
        "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
        "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]),
        "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
        "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]),
        "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]),
        "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]), "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]),
        "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]), "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]),
        "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
        : "l"(da), "l"(db), "n"(1));
    else
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 {"
        "%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16,%17,%18,%19,%20,%21,%22,%23,"
        "%24,%25,%26,%27,%28,%29,%30,%31,%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47,"
        "%48,%49,%50,%51,%52,%53,%54,%55,%56,%57,%58,%59,%60,%61,%62,%63,%64,%65,%66,%67,%68,%69,%70,%71,"
        "%72,%73,%74,%75,%76,%77,%78,%79,%80,%81,%82,%83,%84,%85,%86,%87,%88,%89,%90,%91,%92,%93,%94,%95,"
        "%96,%97,%98,%99,%100,%101,%102,%103,%104,%105,%106,%107,%108,%109,%110,%111,%112,%113,%114,%115,%116,%117,%118,%119,"
        "%120,%121,%122,%123,%124,%125,%126,%127"
        "}, %128, %129, p, 1, 1, 0, 1;\n}\n"
        :
        "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]),
        "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]),
        "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
        "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]),
        "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
        "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]),
        "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]),
        "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]), "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]),
        "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]), "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]),
        "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
        : "l"(da), "l"(db), "n"(1));
}

#define BM block_m
#define BN block_n
#define BK block_k
#define WG_ROWS (BM / wg_m)
#define MI (WG_ROWS / 64)
#define NTHREADS (128 * (wg_m + 1))
#define A_BYTES (BM * BK * 2)
#define B_BYTES (BK * BN * 2)
#define STAGE_BYTES (A_BYTES + B_BYTES)
#define SK_MAX_WORKERS 144

static_assert(sizeof(elem_t) == 2 && sizeof(out_t) == 2, "16-bit inputs and output");
static_assert(BK % 64 == 0 && BK <= 256, "block_k: a multiple of 64 (a 128-byte swizzle row), at most 256");
static_assert(BN % 64 == 0 && BN <= 256, "block_n: a multiple of 64, at most 256");
static_assert(WG_ROWS % 64 == 0 && BM == WG_ROWS * wg_m && BM <= 256, "block_m: wg_m pieces of 64-row multiples");
static_assert(wg_m == 1 || wg_m == 2, "one or two consumer warpgroups");
static_assert(MI * BN / 2 <= 128, "at most 128 FP32 accumulators per thread");
static_assert(stages >= 2, "at least two stages");
static_assert(group_m >= 1, "group_m >= 1");

/* Cut tile b (between workers b and b + 1): slots 2b (its first piece) and 2b + 1 (its
 * second), each with the consumer warpgroups' rows one after the other; float4 q of
 * thread t of a warpgroup at q * 128 + t. */
__device__ float4 sk_partial[2 * SK_MAX_WORKERS][BM * BN / 4];
__device__ unsigned sk_arrived[SK_MAX_WORKERS][2];

template <int n> __device__ __forceinline__ void wgmma_tile(float (&d)[n / 2], unsigned long long da, unsigned long long db)
{
    if constexpr (n == 64)
        wgmma_n64(d, da, db);
    else if constexpr (n == 128)
        wgmma_n128(d, da, db);
    else if constexpr (n == 192)
        wgmma_n192(d, da, db);
    else
        wgmma_n256(d, da, db);
}

__device__ __forceinline__ void stmatrix_x4(unsigned addr, unsigned r0, unsigned r1, unsigned r2, unsigned r3)
{
    asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};\n" ::"r"(addr), "r"(r0), "r"(r1),
                 "r"(r2), "r"(r3)
                 : "memory");
}

__device__ __forceinline__ void tma_store(const tma_desc *map, unsigned src, int c0, int c1)
{
    asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%1, %2}], [%3];\n"
                 ::"l"(reinterpret_cast<unsigned long long>(map)), "r"(c0), "r"(c1), "r"(src)
                 : "memory");
}

__device__ __forceinline__ void named_sync(int id)
{
    asm volatile("bar.sync %0, 128;\n" ::"r"(id) : "memory");
}

/* The list of units (tile, k range) of one worker, walked the same way by the producer and
 * the consumers: first its whole tiles (w, w + W, ... below `whole`), then its range of the
 * stream-K iterations, cut at tile boundaries. */
struct unit_walk {
    int w, W, KT, whole;
    long long pos, end; /* stream-K iterations, counted from tile `whole`'s first */
    int next_whole;

    __device__ unit_walk(int tiles, int KT_)
    {
        w = blockIdx.x;
        W = gridDim.x;
        KT = KT_;
        int full = tiles / W;
        if (W > SK_MAX_WORKERS || tiles <= W || tiles % W == 0) {
            whole = tiles; /* every unit a whole tile */
            pos = end = 0;
        } else {
            whole = (full - 1) * W;
            long long total = (long long)(tiles - whole) * KT;
            pos = total * w / W;
            end = total * (w + 1) / W;
        }
        next_whole = w;
    }

    /* The next unit: tile index (in the grouped order), k-tiles [kb, ke); false at the end. */
    __device__ bool next(int &tile, int &kb, int &ke)
    {
        if (next_whole < whole) {
            tile = next_whole;
            next_whole += W;
            kb = 0;
            ke = KT;
            return true;
        }
        if (pos >= end)
            return false;
        tile = whole + (int)(pos / KT);
        kb = (int)(pos % KT);
        long long left = end - pos;
        ke = (int)min((long long)KT, kb + left);
        pos += ke - kb;
        return true;
    }
};

/* Tile t of the grouped order -> its tile row and column. */
__device__ __forceinline__ void tile_coords(int t, int tiles_m, int tiles_n, int &tm, int &tn)
{
    const int per_group = group_m * tiles_n, first = (t / per_group) * group_m;
    const int rows = min(tiles_m - first, group_m), r = t % per_group;
    tm = first + r % rows;
    tn = r / rows;
}

extern "C" __global__ void __launch_bounds__(NTHREADS, 1)
matmul_ladder_tc_stream_k(int M, int N, int K, const __grid_constant__ tma_desc tm_a,
                          const __grid_constant__ tma_desc tm_b, const __grid_constant__ tma_desc tm_c)
{
    extern __shared__ __align__(1024) unsigned char smem[];
    const unsigned base = (smem_u32(smem) + 1023) & ~1023u;
    const unsigned staging = base + stages * STAGE_BYTES;
    const unsigned full = staging + BM * BN * 2, empty = full + 8 * stages;
    /* per consumer warpgroup: the order in which it reached a cut tile (0: first) */
    volatile unsigned *sk_order = reinterpret_cast<volatile unsigned *>(smem + (empty + 8 * stages - smem_u32(smem)));
    const int tid = threadIdx.x, wg = tid / 128, t = tid % 128;

    if (tid == 0) {
        for (int s = 0; s < stages; ++s) {
            mbar_init(full + 8 * s, 1);
            mbar_init(empty + 8 * s, wg_m);
        }
        asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
    }
    __syncthreads();

    const int tiles_m = (M + BM - 1) / BM, tiles_n = (N + BN - 1) / BN, tiles = tiles_m * tiles_n;
    const int KT = (K + BK - 1) / BK;
    unit_walk walk(tiles, KT);

    if (wg == 0) {
        asm volatile("setmaxnreg.dec.sync.aligned.u32 40;\n");
        if (t == 0) {
            tma_prefetch_map(&tm_a);
            tma_prefetch_map(&tm_b);
            tma_prefetch_map(&tm_c);
            int s = 0;
            unsigned phase = 0;
            int tile, kb, ke;
            while (walk.next(tile, kb, ke)) {
                int tm, tn;
                tile_coords(tile, tiles_m, tiles_n, tm, tn);
                const int m0 = tm * BM, n0 = tn * BN;
                for (int kt = kb; kt < ke; ++kt) {
                    mbar_wait(empty + 8 * s, phase ^ 1);
                    const unsigned st = base + s * STAGE_BYTES, bar = full + 8 * s;
                    mbar_expect_tx(bar, STAGE_BYTES);
#pragma unroll
                    for (int j = 0; j < BK / 64; ++j)
                        tma_load(st + j * BM * 128, &tm_a, kt * BK + j * 64, m0, bar);
#pragma unroll
                    for (int j = 0; j < BN / 64; ++j)
                        tma_load(st + A_BYTES + j * BK * 128, &tm_b, n0 + j * 64, kt * BK, bar);
                    if (++s == stages) {
                        s = 0;
                        phase ^= 1;
                    }
                }
            }
        }
    } else {
        asm volatile("setmaxnreg.inc.sync.aligned.u32 232;\n");
        const int cw = wg - 1;
        int s = 0;
        unsigned phase = 0;
        int tile, kb, ke;
        while (walk.next(tile, kb, ke)) {
            int tm, tn;
            tile_coords(tile, tiles_m, tiles_n, tm, tn);
            const int m0 = tm * BM, n0 = tn * BN;
            float acc[MI][BN / 2];
#pragma unroll
            for (int i = 0; i < MI; ++i)
#pragma unroll
                for (int e = 0; e < BN / 2; ++e)
                    acc[i][e] = 0.f;
            int prev = -1;
            for (int kt = kb; kt < ke; ++kt) {
                const unsigned sa = base + s * STAGE_BYTES, sb = sa + A_BYTES;
                mbar_wait(full + 8 * s, phase);
                wgmma_fence();
#pragma unroll
                for (int k16 = 0; k16 < BK / 16; ++k16) {
                    const unsigned long long db = smem_desc(sb + k16 * 2048, BK * 128, 1024);
#pragma unroll
                    for (int i = 0; i < MI; ++i) {
                        unsigned a = sa + (k16 / 4) * BM * 128 + (cw * WG_ROWS + i * 64) * 128 + (k16 % 4) * 32;
                        wgmma_tile<BN>(acc[i], smem_desc(a, 16, 1024), db);
                    }
                }
                wgmma_commit();
                wgmma_wait<1>(); /* the group before is done: release its stage */
                if (prev >= 0 && t == 0)
                    mbar_arrive(empty + 8 * prev);
                prev = s;
                if (++s == stages) {
                    s = 0;
                    phase ^= 1;
                }
            }
            wgmma_wait<0>();
            if (t == 0)
                mbar_arrive(empty + 8 * prev);

            if (kb > 0 || ke < KT) {
                /* a piece of a cut tile: the first piece is the end of this worker's range (cut
                 * b = w), the second the start of it (cut b = w - 1) */
                const int piece = kb == 0 ? 0 : 1, b = blockIdx.x - piece;
                float4 *mine = sk_partial[2 * b + piece] + cw * (WG_ROWS * BN / 4);
                float4 *other = sk_partial[2 * b + 1 - piece] + cw * (WG_ROWS * BN / 4);
#pragma unroll
                for (int i = 0; i < MI; ++i)
#pragma unroll
                    for (int q = 0; q < BN / 8; ++q)
                        __stcg(mine + (i * (BN / 8) + q) * 128 + t,
                               make_float4(acc[i][4 * q], acc[i][4 * q + 1], acc[i][4 * q + 2], acc[i][4 * q + 3]));
                __threadfence();
                named_sync(1 + cw);
                if (t == 0) {
                    sk_order[cw] = atomicAdd(&sk_arrived[b][cw], 1u);
                    __threadfence();
                }
                named_sync(1 + cw);
                if (sk_order[cw] == 0)
                    continue; /* first to arrive: the other piece stores the tile */
                if (t == 0)
                    sk_arrived[b][cw] = 0;
#pragma unroll
                for (int i = 0; i < MI; ++i)
#pragma unroll
                    for (int q = 0; q < BN / 8; ++q) {
                        float4 v = __ldcg(other + (i * (BN / 8) + q) * 128 + t);
                        acc[i][4 * q] += v.x;
                        acc[i][4 * q + 1] += v.y;
                        acc[i][4 * q + 2] += v.z;
                        acc[i][4 * q + 3] += v.w;
                    }
            }

            /* The previous tile's stores have read the staging tile; then it is rewritten. */
            const unsigned cs = staging + cw * WG_ROWS * BN * 2;
            if (t == 0)
                asm volatile("cp.async.bulk.wait_group.read 0;\n" ::: "memory");
            named_sync(1 + cw);
            const int lane = t % 32, q = lane / 8;
#pragma unroll
            for (int i = 0; i < MI; ++i)
#pragma unroll
                for (int j = 0; j < BN / 8; j += 2) {
                    /* lane: row (lane % 8) of matrix q: rows + 8 (q & 1), columns 8 (j + q / 2) */
                    const int row = i * 64 + (t / 32) * 16 + (q & 1) * 8 + lane % 8, piece = j + q / 2;
                    const unsigned addr = cs + (piece / 8) * WG_ROWS * 128 + row * 128 + (((piece % 8) ^ (row & 7)) * 16);
                    stmatrix_x4(addr, pack2(acc[i][4 * j], acc[i][4 * j + 1]), pack2(acc[i][4 * j + 2], acc[i][4 * j + 3]),
                                pack2(acc[i][4 * j + 4], acc[i][4 * j + 5]), pack2(acc[i][4 * j + 6], acc[i][4 * j + 7]));
                }
            asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
            named_sync(1 + cw);
            if (t == 0) {
#pragma unroll
                for (int c = 0; c < BN / 64; ++c)
                    tma_store(&tm_c, cs + c * WG_ROWS * 128, n0 + c * 64, m0 + cw * WG_ROWS);
                asm volatile("cp.async.bulk.commit_group;\n" ::: "memory");
            }
        }
        if (t == 0)
            asm volatile("cp.async.bulk.wait_group 0;\n" ::: "memory");
    }
}
