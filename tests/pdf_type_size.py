#!/usr/bin/env python3
"""pdf_type_size.py PDF MIN_PT - fails when any text of PDF is set smaller than MIN_PT.

The size of a piece of text as the reader sees it is the font size of its Tf operator
times the vertical scale of the text matrix and of every transformation around it (cm
operators, the Matrix of each form XObject it is drawn through, such as a figure
included as PDF, or a table scaled with \\resizebox). This script follows those through
each page's content streams, so a table scaled down to fit or a figure whose labels
shrink with it is measured as printed.

Why not pdftotext's word boxes: a box's height is the font size times the font's
ascent minus descent, which differs from font to font (about 0.89 em for Computer
Modern Roman, 0.83 em for its typewriter face, other values for the fonts gnuplot
embeds), so a threshold on heights either lets 6.5 pt text of one font through or
refuses 7 pt text of another. The content stream carries the size itself.

Reads PDFs written without object streams (pdfTeX with \\pdfobjcompresslevel=0; the
tests set it); Flate-compressed streams are decompressed. Prints the smallest size,
its page and a sample of its text; exit 0 when it is at least MIN_PT, 1 when smaller,
2 when the file cannot be read as such a PDF.
"""
import math
import re
import sys
import zlib

OBJ = re.compile(rb"(\d+)\s+(\d+)\s+obj\b")
REF = re.compile(rb"(\d+)\s+\d+\s+R")
DELIM = b"()<>[]{}/%"
WS = b" \t\r\n\f\0"


def read_objects(data):
    """{number: (dictionary text, stream bytes or None)} of every indirect object."""
    objs = {}
    for m in OBJ.finditer(data):
        start = m.end()
        end = data.find(b"endobj", start)
        if end < 0:
            continue
        body = data[start:end]
        stream = None
        s = re.search(rb"stream\r?\n", body)
        if s and body.rfind(b"endstream") > s.end():
            raw = body[s.end():body.rfind(b"endstream")]
            head = body[:s.start()]
            if b"/FlateDecode" in head:
                try:
                    raw = zlib.decompressobj().decompress(raw)
                except zlib.error:
                    raw = b""
            stream = raw
            body = head
        objs[int(m.group(1))] = (body, stream)
    return objs


def tokens(data):
    """Content-stream tokens: numbers as float, names as str starting '/', strings as
    bytes, '[' and ']' and '<<' '>>' as str, operators as str."""
    i, n = 0, len(data)
    while i < n:
        c = data[i:i + 1]
        if data[i] in WS:
            i += 1
        elif c == b"%":
            while i < n and data[i] not in b"\r\n":
                i += 1
        elif c == b"(":
            depth, i, out = 1, i + 1, bytearray()
            while i < n and depth:
                ch = data[i]
                if ch == 0x5C:  # backslash
                    nxt = data[i + 1:i + 2]
                    if nxt.isdigit():
                        j = i + 1
                        while j < i + 4 and j < n and data[j:j + 1].isdigit():
                            j += 1
                        out.append(int(data[i + 1:j], 8) & 0xFF)
                        i = j
                        continue
                    out += {b"n": b"\n", b"r": b"\r", b"t": b"\t"}.get(nxt, nxt)
                    i += 2
                    continue
                if ch == 0x28:
                    depth += 1
                elif ch == 0x29:
                    depth -= 1
                    if not depth:
                        i += 1
                        break
                out.append(ch)
                i += 1
            yield bytes(out)
        elif data[i:i + 2] in (b"<<", b">>"):
            yield data[i:i + 2].decode()
            i += 2
        elif c == b"<":
            j = data.find(b">", i)
            hexs = re.sub(rb"\s", b"", data[i + 1:j])
            yield bytes.fromhex((hexs + b"0" * (len(hexs) % 2)).decode())
            i = j + 1
        elif c in (b"[", b"]", b"{", b"}"):
            yield c.decode()
            i += 1
        else:
            j = i + 1 if c == b"/" else i
            while j < n and data[j] not in WS and data[j] not in DELIM:
                j += 1
            word = data[i:j].decode("latin-1")
            i = max(j, i + 1)
            try:
                yield float(word)
            except ValueError:
                yield word


def mul(a, b):
    """a then b, as PDF matrices [a b c d e f]."""
    return [a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
            a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3],
            a[4] * b[0] + a[5] * b[2] + b[4], a[4] * b[1] + a[5] * b[3] + b[5]]


def resolve(objs, text):
    """The dictionary text a value stands for: itself, or the object it references."""
    text = text.strip()
    m = REF.fullmatch(text)
    return objs.get(int(m.group(1)), (b"", None))[0] if m else text


def sub_dict(text, key):
    """The text of text's entry key (a << >> dictionary or a reference), or b''."""
    i = text.find(b"/" + key)
    if i < 0:
        return b""
    i += len(key) + 1
    while i < len(text) and text[i] in WS:
        i += 1
    if text[i:i + 2] == b"<<":
        depth, j = 0, i
        while j < len(text):
            if text[j:j + 2] == b"<<":
                depth += 1
                j += 2
            elif text[j:j + 2] == b">>":
                depth -= 1
                j += 2
                if not depth:
                    return text[i:j]
            else:
                j += 1
        return text[i:]
    m = REF.match(text, i)
    return m.group(0) if m else b""


def xobjects(objs, resources):
    res = resolve(objs, resources)
    xo = resolve(objs, sub_dict(res, b"XObject"))
    return {name.decode(): int(num) for name, num in re.findall(rb"/([^\s/<>\[\]()]+)\s+(\d+)\s+\d+\s+R", xo)}


def walk(objs, content, resources, ctm, page, found, depth=0):
    """Every text-showing operator of content: (size, page, text) into found."""
    if depth > 8:
        return
    stack, gs, tm, tlm, size, args = [], list(ctm), None, None, 0.0, []
    xo = xobjects(objs, resources)
    for tok in tokens(content):
        if not isinstance(tok, str) or tok.startswith("/") or tok in ("[", "]", "<<", ">>"):
            args.append(tok)
            continue
        op = tok
        nums = [a for a in args if isinstance(a, float)]
        if op == "q":
            stack.append(list(gs))
        elif op == "Q" and stack:
            gs = stack.pop()
        elif op == "cm" and len(nums) >= 6:
            gs = mul(nums[-6:], gs)
        elif op == "BT":
            tm = tlm = [1, 0, 0, 1, 0, 0]
        elif op == "Tf" and nums:
            size = nums[-1]
        elif op == "Tm" and len(nums) >= 6:
            tm = tlm = nums[-6:]
        elif op in ("Td", "TD") and len(nums) >= 2 and tlm:
            tm = tlm = mul([1, 0, 0, 1, nums[-2], nums[-1]], tlm)
        elif op in ("Tj", "TJ", "'", '"') and tm is not None:
            text = b"".join(a for a in args if isinstance(a, bytes))
            m = mul(tm, gs)
            eff = abs(size) * math.hypot(m[2], m[3])
            sample = re.sub(r"[^\x20-\x7e]", "", text.decode("latin-1")).strip()
            if text.strip() and eff > 0:
                found.append((eff, page, sample))
        elif op == "Do" and args and isinstance(args[-1], str) and args[-1][1:] in xo:
            num = xo[args[-1][1:]]
            head, stream = objs.get(num, (b"", None))
            if b"/Form" in head and stream is not None:
                mm = re.search(rb"/Matrix\s*\[([^\]]*)\]", head)
                matrix = [float(x) for x in mm.group(1).split()] if mm else [1, 0, 0, 1, 0, 0]
                walk(objs, stream, sub_dict(head, b"Resources") or resources, mul(matrix, gs), page, found,
                     depth + 1)
        args = []


def pages(objs):
    """(page number, content bytes, resources text) in document order."""
    root = next((b for b, s in objs.values() if re.search(rb"/Type\s*/Pages\b", b) and b"/Parent" not in b), None)
    out = []

    def visit(text):
        for num in [int(x) for x in re.findall(rb"(\d+)\s+\d+\s+R", sub_kids(text))]:
            body = objs.get(num, (b"", None))[0]
            if re.search(rb"/Type\s*/Pages\b", body):
                visit(body)
            elif re.search(rb"/Type\s*/Page\b", body):
                contents = sub_dict(body, b"Contents")
                arr = re.search(rb"/Contents\s*\[([^\]]*)\]", body)
                refs = re.findall(rb"(\d+)\s+\d+\s+R", arr.group(1) if arr else contents)
                data = b"\n".join(objs.get(int(r), (b"", b""))[1] or b"" for r in refs)
                res = sub_dict(body, b"Resources")
                out.append((len(out) + 1, data, res))

    def sub_kids(text):
        m = re.search(rb"/Kids\s*\[([^\]]*)\]", text)
        return m.group(1) if m else b""

    if root:
        visit(root)
    return out


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    try:
        data = open(sys.argv[1], "rb").read()
        limit = float(sys.argv[2])
    except (OSError, ValueError) as e:
        print(f"pdf_type_size.py: {e}", file=sys.stderr)
        return 2
    objs = read_objects(data)
    found = []
    ps = pages(objs)
    for page, content, res in ps:
        walk(objs, content, res, [1, 0, 0, 1, 0, 0], page, found)
    if not ps or not found:
        print(f"{sys.argv[1]}: no pages or no text found (a PDF with object streams?)", file=sys.stderr)
        return 2
    small = sorted(f for f in found if f[0] < limit - 0.05)
    least = min(found)
    print(f"{sys.argv[1]}: {len(ps)} pages, {len(found)} pieces of text, smallest {least[0]:.2f} pt "
          f"(page {least[1]}: '{least[2][:40]}')")
    for eff, page, text in small[:10]:
        print(f"  {eff:.2f} pt on page {page}: '{text[:60]}'")
    if small:
        print(f"{len(small)} pieces of text under {limit:g} pt")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
