#!/usr/bin/env python3
"""The development driver's kernel configurations, with the launch geometry, shared memory,
restrictions and arguments that profiles/ladder-tc.ini gives the harness for each step
(the same expressions, evaluated here). `variants.py manifest SET` prints the manifest
(tab-separated, one configuration and dtype a line) that build.sh compiles and driver
reads; `variants.py names SET` prints the names."""
import sys

SM90 = "-gencode=arch=compute_90a,code=sm_90a"


def cdiv(a, b):
    return -(-a // b)


def tiles_geom(p):
    return dict(grid="tiles", bm=p["block_m"], bn=p["block_n"], cluster=1)


def persistent_geom(p):
    return dict(grid="persistent", bm=p["block_m"], bn=p["block_n"], cluster=p["cluster_m"])


FAMILIES = {
    "wmma": dict(
        file="docs/ladder-tc/dev/wmma_base.cu", function="matmul_dev_wmma",
        threads=lambda p: (p["block_m"] // p["warp_m"]) * (p["block_n"] // p["warp_n"]) * 32,
        smem=lambda p: 0, geom=tiles_geom, restrict="none", args=lambda p: "C, A, B, M, N, K"),
    "s02": dict(
        file="kernels/ladder-tc/02_mma_sync.cu", function="matmul_ladder_tc_mma_sync",
        threads=lambda p: (p["block_m"] // p["warp_m"]) * (p["block_n"] // p["warp_n"]) * 32,
        smem=lambda p: 0, geom=tiles_geom, restrict="none", args=lambda p: "C, A, B, M, N, K"),
    "s03": dict(
        file="kernels/ladder-tc/03_pipelined.cu", function="matmul_ladder_tc_pipelined",
        threads=lambda p: (p["block_m"] // p["warp_m"]) * (p["block_n"] // p["warp_n"]) * 32,
        smem=lambda p: p["stages"] * (p["block_m"] + p["block_n"]) * p["block_k"] * 2,
        geom=tiles_geom, restrict="k8n8", args=lambda p: "C, A, B, M, N, K"),
    "s04": dict(
        file="kernels/ladder-tc/04_wgmma_tma.cu", function="matmul_ladder_tc_wgmma",
        threads=lambda p: 128 * p["wg_m"],
        smem=lambda p: p["stages"] * (p["block_m"] + p["block_n"]) * p["block_k"] * 2 + 1024 + 8 * p["stages"],
        geom=tiles_geom, restrict="k8n8",
        args=lambda p: "C, M, N, K, tma(A, 64, %d, 128), tma(B, 64, %d, 128)" % (p["block_m"], p["block_k"])),
    "s04x": dict(
        file="STAGE/s04x.cu", function="matmul_ladder_tc_wgmma",
        threads=lambda p: 128 * p["wg_m"],
        smem=lambda p: p["stages"] * (p["block_m"] + p["block_n"]) * p["block_k"] * 2 + 1024 + 8 * p["stages"],
        geom=tiles_geom, restrict="k8n8",
        args=lambda p: "C, M, N, K, tma(A, 64, %d, 128), tma(B, 64, %d, 128)" % (p["block_m"], p["block_k"])),
    "s05": dict(
        file="kernels/ladder-tc/05_warp_specialized.cu", function="matmul_ladder_tc_warp_specialized",
        threads=lambda p: 128 * (p["wg_m"] + 1),
        smem=lambda p: p["stages"] * (p["block_m"] + p["block_n"]) * p["block_k"] * 2 + 1024 + 16 * p["stages"],
        geom=persistent_geom, restrict="k8n8",
        args=lambda p: "C, M, N, K, tma(A, 64, %d, 128), tma(B, 64, %d, 128)" % (p["block_m"], p["block_k"])),
    "s06": dict(
        file="kernels/ladder-tc/06_tma_store.cu", function="matmul_ladder_tc_tma_store",
        threads=lambda p: 128 * (p["wg_m"] + 1),
        smem=lambda p: (p["stages"] * (p["block_m"] + p["block_n"]) * p["block_k"] * 2 + p["block_m"] * p["block_n"] * 2
                        + 1024 + 16 * p["stages"]),
        geom=persistent_geom, restrict="k8n8",
        args=lambda p: "M, N, K, tma(A, 64, %d, 128), tma(B, 64, %d, 128), tma(C, 64, %d, 128)"
        % (p["block_m"], p["block_k"], p["block_m"] // p["wg_m"])),
    "s07": dict(
        file="kernels/ladder-tc/07_stream_k.cu", function="matmul_ladder_tc_stream_k",
        threads=lambda p: 128 * (p["wg_m"] + 1),
        smem=lambda p: (p["stages"] * (p["block_m"] + p["block_n"]) * p["block_k"] * 2 + p["block_m"] * p["block_n"] * 2
                        + 1024 + 16 * p["stages"] + 16),
        geom=lambda p: dict(grid="persistent", bm=p["block_m"], bn=p["block_n"], cluster=1), restrict="k8n8",
        args=lambda p: "M, N, K, tma(A, 64, %d, 128), tma(B, 64, %d, 128), tma(C, 64, %d, 128)"
        % (p["block_m"], p["block_k"], p["block_m"] // p["wg_m"])),
}


def P(**kw):
    return kw


# Sets of configurations: "dev1" is the first development run's.
SETS = {
    "dev1": [
        ("wmma", P(block_m=128, block_n=128, block_k=32, warp_m=32, warp_n=64)),
        ("s02", P(block_m=128, block_n=128, block_k=32, warp_m=64, warp_n=64)),
        ("s02", P(block_m=128, block_n=256, block_k=32, warp_m=64, warp_n=64)),
        ("s03", P(block_m=128, block_n=128, block_k=32, warp_m=64, warp_n=64, stages=4)),
        ("s03", P(block_m=128, block_n=256, block_k=32, warp_m=64, warp_n=64, stages=4)),
        ("s03", P(block_m=128, block_n=128, block_k=64, warp_m=64, warp_n=32, stages=3)),
        ("s04", P(block_m=128, block_n=256, block_k=64, wg_m=2, stages=4)),
        ("s04", P(block_m=128, block_n=128, block_k=64, wg_m=2, stages=4)),
        ("s04", P(block_m=256, block_n=128, block_k=64, wg_m=2, stages=4)),
        ("s04x", P(block_m=128, block_n=256, block_k=64, wg_m=2, stages=4)),
        ("s05", P(block_m=128, block_n=256, block_k=64, wg_m=2, stages=4, cluster_m=1, group_m=8)),
        ("s05", P(block_m=128, block_n=256, block_k=64, wg_m=2, stages=4, cluster_m=2, group_m=8)),
        ("s05", P(block_m=256, block_n=128, block_k=64, wg_m=2, stages=4, cluster_m=2, group_m=8)),
        ("s05", P(block_m=128, block_n=128, block_k=64, wg_m=2, stages=6, cluster_m=1, group_m=8)),
        ("s05", P(block_m=128, block_n=128, block_k=64, wg_m=2, stages=6, cluster_m=2, group_m=8)),
        ("s06", P(block_m=128, block_n=256, block_k=64, wg_m=2, stages=3, cluster_m=1, group_m=8)),
        ("s06", P(block_m=128, block_n=256, block_k=64, wg_m=2, stages=3, cluster_m=2, group_m=8)),
        ("s06", P(block_m=256, block_n=128, block_k=64, wg_m=2, stages=3, cluster_m=2, group_m=8)),
        ("s06", P(block_m=128, block_n=192, block_k=64, wg_m=2, stages=4, cluster_m=2, group_m=8)),
        ("s06", P(block_m=128, block_n=128, block_k=64, wg_m=2, stages=5, cluster_m=1, group_m=8)),
        ("s06", P(block_m=128, block_n=128, block_k=64, wg_m=2, stages=5, cluster_m=2, group_m=8)),
    ],
}

def dev2():
    v = [
        ("wmma", P(block_m=128, block_n=128, block_k=32, warp_m=32, warp_n=64)),
        ("s02", P(block_m=128, block_n=128, block_k=32, warp_m=64, warp_n=64)),
        ("s02", P(block_m=64, block_n=128, block_k=32, warp_m=32, warp_n=64)),
        ("s03", P(block_m=128, block_n=128, block_k=32, warp_m=64, warp_n=64, stages=4)),
        ("s03", P(block_m=128, block_n=128, block_k=32, warp_m=64, warp_n=64, stages=5)),
        ("s03", P(block_m=128, block_n=256, block_k=32, warp_m=64, warp_n=64, stages=3)),
        ("s04", P(block_m=256, block_n=128, block_k=64, wg_m=2, stages=4)),
        ("s04", P(block_m=128, block_n=256, block_k=64, wg_m=2, stages=4)),
        ("s04", P(block_m=128, block_n=128, block_k=64, wg_m=2, stages=4)),
        ("s04", P(block_m=128, block_n=128, block_k=64, wg_m=2, stages=6)),
        ("s05", P(block_m=128, block_n=256, block_k=64, wg_m=2, stages=4, cluster_m=2, group_m=8)),
        ("s05", P(block_m=128, block_n=256, block_k=64, wg_m=2, stages=4, cluster_m=1, group_m=8)),
        ("s05", P(block_m=128, block_n=128, block_k=64, wg_m=2, stages=6, cluster_m=1, group_m=8)),
    ]
    for c in (1, 2):
        for g in (8, 16):
            v.append(("s06", P(block_m=128, block_n=256, block_k=64, wg_m=2, stages=3, cluster_m=c, group_m=g)))
    for st in (4, 5, 6):
        v.append(("s06", P(block_m=128, block_n=128, block_k=64, wg_m=2, stages=st, cluster_m=1, group_m=8)))
    v += [
        ("s06", P(block_m=128, block_n=192, block_k=64, wg_m=2, stages=4, cluster_m=1, group_m=8)),
        ("s06", P(block_m=128, block_n=64, block_k=64, wg_m=2, stages=8, cluster_m=1, group_m=8)),
        ("s06", P(block_m=64, block_n=128, block_k=64, wg_m=1, stages=8, cluster_m=1, group_m=8)),
        ("s06", P(block_m=64, block_n=256, block_k=64, wg_m=1, stages=4, cluster_m=1, group_m=8)),
        ("s06", P(block_m=128, block_n=128, block_k=128, wg_m=2, stages=3, cluster_m=1, group_m=8)),
    ]
    for g in (8, 16):
        v.append(("s07", P(block_m=128, block_n=256, block_k=64, wg_m=2, stages=3, group_m=g)))
    v += [
        ("s07", P(block_m=128, block_n=192, block_k=64, wg_m=2, stages=4, group_m=8)),
        ("s07", P(block_m=128, block_n=128, block_k=64, wg_m=2, stages=5, group_m=8)),
        ("s07", P(block_m=128, block_n=128, block_k=64, wg_m=2, stages=6, group_m=8)),
        ("s07", P(block_m=128, block_n=64, block_k=64, wg_m=2, stages=8, group_m=8)),
        ("s07", P(block_m=64, block_n=128, block_k=64, wg_m=1, stages=8, group_m=8)),
    ]
    return v


SETS["dev2"] = dev2()
SETS["base"] = [("wmma", P(block_m=128, block_n=128, block_k=32, warp_m=32, warp_n=64))]

SHORT = dict(block_m="m", block_n="n", block_k="k", warp_m="wm", warp_n="wn", wg_m="wg", stages="s",
             cluster_m="c", group_m="g")


def name_of(fam, p):
    return fam + "_" + "".join("%s%d" % (SHORT[k], v) for k, v in p.items())


def rows(set_name):
    for fam, p in SETS[set_name]:
        f = FAMILIES[fam]
        g = f["geom"](p)
        base = name_of(fam, p)
        for dt in ("bf16", "f16"):
            ctype = "__nv_bfloat16" if dt == "bf16" else "__half"
            defs = ["-Delem_t=" + ctype, "-Dacc_t=float", "-Dout_t=" + ctype] + ["-D%s=%d" % kv for kv in p.items()]
            yield dict(name=base, dtype=dt, cubin="cubin/%s.%s.cubin" % (base, dt), file=f["file"],
                       function=f["function"], threads=f["threads"](p), grid=g["grid"], bm=g["bm"], bn=g["bn"],
                       cluster=g["cluster"], smem=f["smem"](p), restrict=f["restrict"], args=f["args"](p),
                       defs=" ".join(defs))


COLS = ["name", "dtype", "cubin", "function", "threads", "grid", "bm", "bn", "cluster", "smem", "restrict", "args",
        "file", "defs"]

if __name__ == "__main__":
    what, set_name = sys.argv[1], sys.argv[2]
    if what == "manifest":
        for r in rows(set_name):
            print("\t".join(str(r[c]) for c in COLS))
    elif what == "names":
        seen = []
        for r in rows(set_name):
            if r["name"] not in seen:
                seen.append(r["name"])
        print("\n".join(seen))
    else:
        sys.exit("usage: variants.py manifest|names SET")
