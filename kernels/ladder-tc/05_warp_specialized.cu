/* 05_warp_specialized.cu - tensor-core ladder step 5: warp specialisation (a producer
 * warpgroup and wg_m consumer warpgroups, `setmaxnreg`), a persistent tile scheduler, and
 * thread-block clusters whose blocks share B's tiles through TMA multicast (sm_90a).
 *
 * What changes from step 4:
 *  - roles: warpgroup 0 only copies (one thread issues every TMA box; the warpgroup gives
 *    its registers back with setmaxnreg.dec to 40), warpgroups 1..wg_m only multiply
 *    (setmaxnreg.inc to 232: room for 128 accumulators and the addressing). Two mbarriers
 *    per stage replace step 4's block barrier: `full` (the copy engine's byte count says
 *    the stage is in) and `empty` (each consumer warpgroup arrives once its wgmma group on
 *    the stage is complete). Neither role ever waits at a block-wide barrier, so the
 *    refill of a stage starts the moment the last reader lets go of it, not when the
 *    slowest warpgroup reaches a barrier.
 *  - persistence: the grid is as many blocks as fit at once (grid_x = sm_count, rounded to
 *    the cluster); each walks the tiles u = cluster, cluster + clusters, ... in grouped
 *    order (group_m tile rows at a time, as in Triton, so that the tiles in flight share A
 *    and B in L2). The stage ring runs on across tiles: the producer fetches the next
 *    tile's first k-tiles while the consumers are still storing the last tile.
 *  - clusters of cluster_m blocks along M: the blocks of a cluster work on tiles of one
 *    column of B at the same time, and each copies only its share (every cluster_m-th
 *    64-column box) of the B stage, multicast into the shared memory of all of them; each
 *    consumer arrives at the `empty` barrier of every block of the cluster, since its
 *    stage was filled by all of them. B's traffic from L2 falls by cluster_m.
 * What should move: tensor-pipe activity (sm__pipe_tensor_op_gmma_cycles_active) up,
 * towards the share the mainloop has of the tile (the epilogue still stops its consumers);
 * L2 -> SM bytes for B down by cluster_m (lts__t_sectors_srcunit_tex_op_read); launch and
 * tail overhead of one block per tile gone (one wave of blocks, each many tiles).
 *
 * Parameters: block_m x block_n outputs per tile, block_k deep stages (a multiple of 64),
 * wg_m consumer warpgroups along M (each block_m / wg_m rows, a multiple of 64), stages,
 * cluster_m (1 or 2) blocks per cluster along M, group_m tile rows per group of the order.
 * Threads: 128 * (wg_m + 1), a 1D block. Grid: 1D, a multiple of cluster_m, at most one
 * block per SM: grid_x = min(sm_count / cluster_m * cluster_m, cluster_m * (tiles of
 * cluster_m rows)); cluster_x = cluster_m.
 * Dynamic shared memory: stages * (block_m + block_n) * block_k * 2 + 1024 + 16 * stages
 * bytes. Arguments: C, M, N, K, tma(A, 64, block_m, 128), tma(B, 64, block_k, 128).
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
#define CM cluster_m
#define WG_ROWS (BM / wg_m)
#define MI (WG_ROWS / 64)
#define NTHREADS (128 * (wg_m + 1))
#define A_BYTES (BM * BK * 2)
#define B_BYTES (BK * BN * 2)
#define STAGE_BYTES (A_BYTES + B_BYTES)

static_assert(sizeof(elem_t) == 2 && sizeof(out_t) == 2, "16-bit inputs and output");
static_assert(BK % 64 == 0 && BK <= 256, "block_k: a multiple of 64 (a 128-byte swizzle row), at most 256");
static_assert(BN % 64 == 0 && BN <= 256, "block_n: a multiple of 64, at most 256");
static_assert(WG_ROWS % 64 == 0 && BM == WG_ROWS * wg_m && BM <= 256, "block_m: wg_m pieces of 64-row multiples");
static_assert(wg_m == 1 || wg_m == 2, "one or two consumer warpgroups");
static_assert(MI * BN / 2 <= 128, "at most 128 FP32 accumulators per thread");
static_assert(stages >= 2, "at least two stages");
static_assert(CM == 1 || CM == 2, "clusters of 1 or 2 blocks");
static_assert(group_m >= 1, "group_m >= 1");

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

__device__ __forceinline__ unsigned cluster_rank()
{
    unsigned r;
    asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(r));
    return r;
}

__device__ __forceinline__ void cluster_sync()
{
    asm volatile("barrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;\n" ::: "memory");
}

/* Arrival on the barrier at the same shared address in block `rank` of the cluster. */
__device__ __forceinline__ void mbar_arrive_cluster(unsigned bar, unsigned rank)
{
    asm volatile("{\n.reg .b32 ra;\nmapa.shared::cluster.u32 ra, %0, %1;\n"
                 "mbarrier.arrive.shared::cluster.b64 _, [ra];\n}\n" ::"r"(bar), "r"(rank)
                 : "memory");
}

/* A box copied into the same shared address of every block in `mask`, completing each
 * one's barrier at the same address. */
__device__ __forceinline__ void tma_load_multicast(unsigned dst, const tma_desc *map, int c0, int c1, unsigned bar,
                                                   unsigned short mask)
{
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster"
                 " [%0], [%1, {%2, %3}], [%4], %5;\n"
                 ::"r"(dst), "l"(reinterpret_cast<unsigned long long>(map)), "r"(c0), "r"(c1), "r"(bar), "h"(mask)
                 : "memory");
}

/* Unit u of the grouped order -> its row of cluster tiles and its column of tiles. */
__device__ __forceinline__ void unit_coords(int u, int units_m, int tiles_n, int &um, int &un)
{
    const int per_group = group_m * tiles_n, first = (u / per_group) * group_m;
    const int rows = min(units_m - first, group_m), r = u % per_group;
    um = first + r % rows;
    un = r / rows;
}

extern "C" __global__ void __launch_bounds__(NTHREADS, 1)
matmul_ladder_tc_warp_specialized(out_t *__restrict__ C, int M, int N, int K, const __grid_constant__ tma_desc tm_a,
                                  const __grid_constant__ tma_desc tm_b)
{
    extern __shared__ __align__(1024) unsigned char smem[];
    const unsigned base = (smem_u32(smem) + 1023) & ~1023u;
    const unsigned full = base + stages * STAGE_BYTES, empty = full + 8 * stages;
    const int tid = threadIdx.x, wg = tid / 128, t = tid % 128;
    const unsigned rank = CM > 1 ? cluster_rank() : 0;

    if (tid == 0) {
        for (int s = 0; s < stages; ++s) {
            mbar_init(full + 8 * s, 1);
            mbar_init(empty + 8 * s, wg_m * CM);
        }
        asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
    }
    if constexpr (CM > 1)
        cluster_sync(); /* the partner's barriers exist before anything is multicast to them */
    else
        __syncthreads();

    const int tiles_m = (M + BM - 1) / BM, tiles_n = (N + BN - 1) / BN;
    const int units_m = (tiles_m + CM - 1) / CM, units = units_m * tiles_n;
    const int KT = (K + BK - 1) / BK;
    const int cid = blockIdx.x / CM, clusters = gridDim.x / CM;

    if (wg == 0) {
        asm volatile("setmaxnreg.dec.sync.aligned.u32 40;\n");
        if (t == 0) {
            tma_prefetch_map(&tm_a);
            tma_prefetch_map(&tm_b);
            int s = 0;
            unsigned phase = 0;
            for (int u = cid; u < units; u += clusters) {
                int um, un;
                unit_coords(u, units_m, tiles_n, um, un);
                const int m0 = (um * CM + rank) * BM, n0 = un * BN;
                for (int kt = 0; kt < KT; ++kt) {
                    mbar_wait(empty + 8 * s, phase ^ 1);
                    const unsigned st = base + s * STAGE_BYTES, bar = full + 8 * s;
                    mbar_expect_tx(bar, STAGE_BYTES);
#pragma unroll
                    for (int j = 0; j < BK / 64; ++j)
                        tma_load(st + j * BM * 128, &tm_a, kt * BK + j * 64, m0, bar);
#pragma unroll
                    for (int j = 0; j < BN / 64; ++j) {
                        if constexpr (CM == 1)
                            tma_load(st + A_BYTES + j * BK * 128, &tm_b, n0 + j * 64, kt * BK, bar);
                        else if (j % CM == (int)rank)
                            tma_load_multicast(st + A_BYTES + j * BK * 128, &tm_b, n0 + j * 64, kt * BK, bar,
                                               (unsigned short)((1u << CM) - 1));
                    }
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
        for (int u = cid; u < units; u += clusters) {
            int um, un;
            unit_coords(u, units_m, tiles_n, um, un);
            const int m0 = (um * CM + rank) * BM, n0 = un * BN;
            float acc[MI][BN / 2];
#pragma unroll
            for (int i = 0; i < MI; ++i)
#pragma unroll
                for (int e = 0; e < BN / 2; ++e)
                    acc[i][e] = 0.f;
            int prev = -1;
            for (int kt = 0; kt < KT; ++kt) {
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
                if (prev >= 0) {
                    if constexpr (CM == 1) {
                        if (t == 0)
                            mbar_arrive(empty + 8 * prev);
                    } else if (t < CM) {
                        mbar_arrive_cluster(empty + 8 * prev, t);
                    }
                }
                prev = s;
                if (++s == stages) {
                    s = 0;
                    phase ^= 1;
                }
            }
            wgmma_wait<0>();
            if constexpr (CM == 1) {
                if (t == 0)
                    mbar_arrive(empty + 8 * prev);
            } else if (t < CM) {
                mbar_arrive_cluster(empty + 8 * prev, t);
            }

            /* N % 8 == 0: a column pair is wholly inside or outside, and 4-byte aligned */
            const int rbase = m0 + cw * WG_ROWS + (t / 32) * 16 + (t % 32) / 4;
#pragma unroll
            for (int i = 0; i < MI; ++i)
#pragma unroll
                for (int j = 0; j < BN / 8; ++j) {
                    int row = rbase + i * 64, col = n0 + j * 8 + (t % 4) * 2;
                    if (col < N) {
                        if (row < M)
                            *reinterpret_cast<unsigned *>(C + (size_t)row * N + col) =
                                pack2(acc[i][4 * j], acc[i][4 * j + 1]);
                        if (row + 8 < M)
                            *reinterpret_cast<unsigned *>(C + (size_t)(row + 8) * N + col) =
                                pack2(acc[i][4 * j + 2], acc[i][4 * j + 3]);
                    }
                }
        }
    }
    __syncwarp();
    if constexpr (CM > 1)
        cluster_sync(); /* no block leaves while a partner may still signal its barriers */
}
