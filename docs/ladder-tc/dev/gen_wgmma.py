#!/usr/bin/env python3
"""Prints the wgmma wrappers that kernels/ladder-tc/04..06 carry (one per N, f16 and bf16):
m64nNk16, FP32 accumulators in d[N/2], A and B from shared-memory descriptors, A K-major,
B N-major (imm-trans-b = 1), D += A*B. Pasted into each kernel file, so that each file
stands alone under NVRTC."""
import sys

def regs(n):
    names = ["%%%d" % i for i in range(n // 2)]
    lines = []
    for i in range(0, len(names), 24):
        lines.append('        "' + ",".join(names[i:i + 24]) + (',"' if i + 24 < len(names) else '"'))
    return "\n".join(lines)

def outs(n):
    items = ['"+f"(d[%d])' % i for i in range(n // 2)]
    lines = []
    for i in range(0, len(items), 12):
        lines.append("        " + ", ".join(items[i:i + 12]) + ("," if i + 12 < len(items) else ""))
    return "\n".join(lines)

def one(n):
    k = n // 2
    out = []
    out.append("__device__ __forceinline__ void wgmma_n%d(float (&d)[%d], unsigned long long da, unsigned long long db)" % (n, k))
    out.append("{")
    for t, cond in (("bf16", "if constexpr (TC_BF16)"), ("f16", "else")):
        out.append("    %s" % cond)
        out.append('        asm volatile("{\\n.reg .pred p;\\nsetp.ne.b32 p, %%%d, 0;\\n"' % (k + 2))
        out.append('        "wgmma.mma_async.sync.aligned.m64n%dk16.f32.%s.%s {"' % (n, t, t))
        out.append(regs(n))
        out.append('        "}, %%%d, %%%d, p, 1, 1, 0, 1;\\n}\\n"' % (k, k + 1))
        out.append("        :")
        out.append(outs(n))
        out.append('        : "l"(da), "l"(db), "n"(1));')
    out.append("}")
    return "\n".join(out)

ns = [int(x) for x in sys.argv[1:]] or [64, 128, 192, 256]
print("\n\n".join(one(n) for n in ns))
