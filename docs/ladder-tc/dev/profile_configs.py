#!/usr/bin/env python3
"""profile_configs.py PROFILE [KERNEL...] - the configurations a profile gives each source
kernel, as the harness will enumerate them: the cartesian product of the param.* lists (first
parameter slowest), filtered by every `restrict` that does not name M, N or K, with block_x,
grid, cluster_x, smem and args evaluated (grid_x marks a persistent kernel). Prints the
development driver's manifest rows (variants.py's columns), so that a development run uses
the profile's own -D macros and launch geometry. Expressions follow docs/profiles.md:
?:, ||, &&, comparisons, + - * / %, unary - and !, min, max, ceil_div, `and`, `or`, `not`."""
import itertools
import re
import sys

SHORT = dict(block_m="m", block_n="n", block_k="k", warp_m="wm", warp_n="wn", wg_m="wg", stages="s",
             cluster_m="c", group_m="g")
TOKEN = re.compile(r"\s*(\d+|[A-Za-z_]\w*|&&|\|\||==|!=|<=|>=|[-+*/%()<>?:!,])")


class Expr:
    def __init__(self, text, env):
        self.toks = []
        pos = 0
        text = text.strip()
        while pos < len(text):
            m = TOKEN.match(text, pos)
            if not m:
                raise SyntaxError("bad expression %r at %d" % (text, pos))
            self.toks.append(m.group(1))
            pos = m.end()
        self.i = 0
        self.env = env

    def peek(self):
        return self.toks[self.i] if self.i < len(self.toks) else None

    def take(self, t=None):
        tok = self.peek()
        if t is not None and tok != t:
            raise SyntaxError("expected %s, got %s" % (t, tok))
        self.i += 1
        return tok

    def value(self):
        v = self.ternary()
        if self.peek() is not None:
            raise SyntaxError("trailing %s" % self.peek())
        return v

    def ternary(self):
        c = self.lor()
        if self.peek() == "?":
            self.take()
            a = self.ternary()
            self.take(":")
            b = self.ternary()
            return a if c else b
        return c

    def lor(self):
        v = self.land()
        while self.peek() in ("||", "or"):
            self.take()
            r = self.land()
            v = int(bool(v) or bool(r))
        return v

    def land(self):
        v = self.lnot()
        while self.peek() in ("&&", "and"):
            self.take()
            r = self.lnot()
            v = int(bool(v) and bool(r))
        return v

    def lnot(self):
        if self.peek() == "not":
            self.take()
            return int(not self.lnot())
        return self.cmp()

    def cmp(self):
        v = self.add()
        op = self.peek()
        if op in ("==", "!=", "<", "<=", ">", ">="):
            self.take()
            r = self.add()
            v = int({"==": v == r, "!=": v != r, "<": v < r, "<=": v <= r, ">": v > r, ">=": v >= r}[op])
        return v

    def add(self):
        v = self.mul()
        while self.peek() in ("+", "-"):
            op = self.take()
            r = self.mul()
            v = v + r if op == "+" else v - r
        return v

    def mul(self):
        v = self.unary()
        while self.peek() in ("*", "/", "%"):
            op = self.take()
            r = self.unary()
            if op == "*":
                v = v * r
            elif op == "/":
                v = int(v / r)
            else:
                v = v - int(v / r) * r
        return v

    def unary(self):
        if self.peek() == "-":
            self.take()
            return -self.unary()
        if self.peek() == "+":
            self.take()
            return self.unary()
        if self.peek() == "!":
            self.take()
            return int(not self.unary())
        return self.atom()

    def atom(self):
        t = self.take()
        if t == "(":
            v = self.ternary()
            self.take(")")
            return v
        if t.isdigit():
            return int(t)
        if t in ("min", "max", "ceil_div"):
            self.take("(")
            a = self.ternary()
            self.take(",")
            b = self.ternary()
            self.take(")")
            return min(a, b) if t == "min" else max(a, b) if t == "max" else -(-a // b)
        if t in self.env:
            return self.env[t]
        raise NameError(t)


def ev(text, env):
    return Expr(text, env).value()


def read_profile(path):
    sections, cur = [], None
    for line in open(path):
        s = line.strip()
        if not s or s[0] in ";#":
            continue
        s = re.sub(r"\s;.*$", "", s).strip()
        if s.startswith("["):
            cur = {"_name": s[1:-1], "restrict": []}
            sections.append(cur)
            continue
        k, v = [x.strip() for x in s.split("=", 1)]
        if k == "restrict":
            cur["restrict"].append(v)
        else:
            cur[k] = v
    return sections


def split_args(s):
    out, depth, cur = [], 0, ""
    for c in s:
        depth += c == "("
        depth -= c == ")"
        if c == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += c
    out.append(cur.strip())
    return out


def configs(sec):
    names = [k[6:] for k in sec if k.startswith("param.")]
    lists = []
    for n in names:
        vals = []
        for item in sec["param." + n].split(","):
            vals.append(int(item))
        lists.append(vals)
    sized = [r for r in sec["restrict"] if re.search(r"\b[MNK]\b", r)]
    plain = [r for r in sec["restrict"] if r not in sized]
    for combo in itertools.product(*lists):
        env = dict(zip(names, combo), elem_size=2)
        if all(ev(r, env) for r in plain):
            yield env, sized


def rows(path, only):
    for sec in read_profile(path):
        name = sec["_name"]
        if not name.startswith("kernel ") or "source" not in sec:
            continue
        kname = name[7:]
        if only and kname not in only:
            continue
        src = re.sub(r"^\.\./", "", sec["source"])
        for env, sized in configs(sec):
            restrict = "none"
            for r in sized:
                if re.sub(r"\s", "", r) == "K%8==0&&N%8==0":
                    restrict = "k8n8"
                else:
                    raise ValueError("size restriction the driver cannot apply: " + r)
            params = [k[6:] for k in sec if k.startswith("param.")]
            tag = "s" + kname.split("_")[0] + "_" + "".join("%s%d" % (SHORT.get(p, p), env[p]) for p in params)
            threads = ev(sec.get("block_x", "1"), env)
            persistent = "grid_x" in sec
            bm = ev(sec.get("grid_div_y", "block_m"), env) if not persistent else env["block_m"]
            bn = ev(sec.get("grid_div_x", "block_n"), env) if not persistent else env["block_n"]
            cluster = ev(sec.get("cluster_x", "1"), env)
            smem = ev(sec.get("smem", "0"), env)
            args = []
            for a in split_args(sec.get("args", "C, A, B, M, N, K")):
                if a.startswith("tma("):
                    parts = split_args(a[4:-1])
                    args.append("tma(%s, %s)" % (parts[0], ", ".join(str(ev(x, env)) for x in parts[1:])))
                else:
                    args.append(a)
            for dt in ("bf16", "f16"):
                ctype = "__nv_bfloat16" if dt == "bf16" else "__half"
                defs = ["-Delem_t=" + ctype, "-Dacc_t=float", "-Dout_t=" + ctype]
                defs += ["-D%s=%d" % (p, env[p]) for p in params]
                yield [tag, dt, "cubin/%s.%s.cubin" % (tag, dt), sec["function"], threads,
                       "persistent" if persistent else "tiles", bm, bn, cluster, smem, restrict, ", ".join(args), src,
                       " ".join(defs)]


if __name__ == "__main__":
    for r in rows(sys.argv[1], sys.argv[2:]):
        print("\t".join(str(x) for x in r))
