#!/usr/bin/env python3
"""Seeds the fuzz corpora and dictionaries from the test suite.

    test/fuzz/make-corpus.py OUT_DIR [--npy-from DIR]...

writes OUT_DIR/<harness>/ (one seed per file, named by content hash) and
OUT_DIR/<harness>.dict for the harnesses of test/fuzz (docs/reliability.md):

  ir           every `// -----` piece and split-file `//--- name` piece of
               test/**/*.mlir and examples/*.mlir
  lower-cpu    the same pieces, each under a first-line comment choosing
               convert-coopvec-to-cpu options (target CPUs with SSE, AVX2,
               AVX-512 and NEON, lane counts, row blocks)
  pipeline     the pipelines of RUN lines (--pass-pipeline=, --pipeline=,
               pass flags such as --coopvec-lower-to-cpu="lanes=4")
  npy          the .npy images that RUN lines write with printf, arrays of
               every dtype, rank and format version, and the .npy files under
               each --npy-from directory (e.g. a build's test/ tree after the
               suite ran: coopvec-run --save-inputs / --out write them)
  interpreter  the pieces that define a function, each followed by a NUL
               byte and bytes choosing the run (fixed pseudo-random bytes)

Dictionaries hold the op, type, pass and option names of the sources.
Only the standard library is used.
"""

import argparse
import hashlib
import os
import random
import re
import struct
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MAX_SEED = 1 << 16

LOWER_OPTIONS = [
    "target-cpu=x86-64-v3",
    "target-cpu=x86-64",
    "target-cpu=skylake-avx512",
    "target-cpu=znver3 lanes=4",
    "target-cpu=x86-64-v3 lanes=1 row-block=1",
    "target-cpu=sapphirerapids lanes=32 row-block=8",
    "target-triple=aarch64-linux-gnu target-cpu=neoverse-v1",
    "target-cpu=x86-64 target-features=+avx2,+fma lanes=8",
]


def test_files(suffixes):
    for top in ("test", "examples"):
        for dirpath, dirnames, filenames in os.walk(os.path.join(ROOT, top)):
            dirnames[:] = sorted(d for d in dirnames if d != "fuzz")
            for name in sorted(filenames):
                if name.endswith(suffixes):
                    yield os.path.join(dirpath, name)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def mlir_pieces():
    """The `// -----` and `//--- name` pieces of every .mlir test."""
    pieces = []
    for path in test_files((".mlir",)):
        text = read(path).decode("utf-8", "replace")
        for part in re.split(r"^//---[^\n]*\n", text, flags=re.M):
            for piece in re.split(r"^// -----[ \t]*\n", part, flags=re.M):
                # RUN/CHECK lines say nothing to the parser; keep the rest.
                lines = [l for l in piece.splitlines()
                         if not re.match(r"\s*// *(RUN|[A-Z0-9-]+):", l)]
                piece = "\n".join(lines).strip()
                if piece and len(piece) < MAX_SEED:
                    pieces.append(piece.encode() + b"\n")
    return pieces


def run_lines():
    """RUN lines with their `\\` continuations joined."""
    for path in test_files((".mlir", ".test", ".c")):
        text = read(path).decode("utf-8", "replace")
        joined = re.sub(r"\\\n\s*// RUN:\s*", " ", text)
        for match in re.finditer(r"RUN:(.*)", joined):
            yield match.group(1)


def pipelines():
    seeds = set()
    for line in run_lines():
        for m in re.finditer(r"--(?:pass-)?pipeline=(?:'([^']*)'|\"([^\"]*)\"|(\S+))",
                             line):
            seeds.add(next(g for g in m.groups() if g is not None))
        flags = []
        for m in re.finditer(r"\s--?((?:coopvec|convert|canonicalize|cse)[a-z0-9-]*)"
                             r"(?:=(?:\"([^\"]*)\"|'([^']*)'|(\S+)))?", line):
            name, options = m.group(1), m.group(2) or m.group(3) or m.group(4)
            flags.append(name + ("{" + options + "}" if options else ""))
        if flags:
            seeds.add(",".join(flags))
    seeds |= {
        "builtin.module(func.func(coopvec-canonicalize,cse),coopvec-lower-to-cpu)",
        "coopvec-lower-to-cpu{target-cpu=skylake-avx512 lanes=16 row-block=4}",
        "coopvec-autodiff{func=layer},coopvec-canonicalize",
        "func.func(coopvec-verify),any(coopvec-canonicalize{merge-bias=false})",
        "convert-coopvec-to-cpu{target-triple=aarch64-linux-gnu target-cpu=neoverse-v1}",
        "coopvec-lower-to-nvvm{chip=sm_80}",
        "builtin.module(builtin.module(func.func(func.func(cse))))",
    }
    return sorted(s.encode() for s in seeds)


def printf_bytes(fmt):
    """What the shell's printf writes for a format without conversions."""
    out = bytearray()
    i = 0
    while i < len(fmt):
        if fmt[i] == "\\" and i + 1 < len(fmt):
            c = fmt[i + 1]
            if c == "x":
                m = re.match(r"[0-9a-fA-F]{1,2}", fmt[i + 2:])
                out.append(int(m.group(0), 16))
                i += 2 + len(m.group(0))
                continue
            out += {"n": b"\n", "t": b"\t", "\\": b"\\", "0": b"\0"}.get(c, c.encode())
            i += 2
            continue
        out += fmt[i].encode()
        i += 1
    return bytes(out)


def npy_image(descr, shape, data, version=1, fortran=False):
    header = "{'descr': '%s', 'fortran_order': %s, 'shape': (%s), }" % (
        descr, "True" if fortran else "False",
        "".join("%d, " % d for d in shape) if len(shape) != 1 else "%d," % shape[0])
    length_bytes = 2 if version == 1 else 4
    pad = (64 - (8 + length_bytes + len(header) + 1) % 64) % 64
    header = header + " " * pad + "\n"
    length = struct.pack("<H" if version == 1 else "<I", len(header))
    return b"\x93NUMPY" + bytes([version, 0]) + length + header.encode() + data


def npy_seeds(dirs):
    seeds = []
    for line in run_lines():
        for m in re.finditer(r"printf \"(\\x93NUMPY[^\"]*)\"", line):
            seeds.append(printf_bytes(m.group(1)))
    rng = random.Random(8)
    formats = {"<f2": "<e", "<f4": "<f", "<f8": "<d", "<i8": "<q"}
    for descr, code in sorted(formats.items()):
        for shape in [(), (0,), (3,), (2, 3), (1, 4, 1), (2, 2, 2)]:
            count = 1
            for d in shape:
                count *= d
            values = [rng.choice([0.0, -0.0, 1.5, -2.0, 65504.0])
                      if code != "<q" else rng.randrange(-9, 9)
                      for _ in range(count)]
            data = struct.pack("<%d%s" % (count, code[1]), *values)
            for version in (1, 2, 3):
                seeds.append(npy_image(descr, shape, data, version))
            seeds.append(npy_image(descr, shape, data, 1, fortran=len(shape) < 2))
    for top in dirs:
        for dirpath, dirnames, filenames in os.walk(top):
            dirnames.sort()
            for name in sorted(filenames):
                if name.endswith(".npy"):
                    data = read(os.path.join(dirpath, name))
                    if len(data) < MAX_SEED:
                        seeds.append(data)
    return seeds


def dictionaries():
    """Tokens for libFuzzer's -dict: names that mutations rarely invent."""
    ops = re.findall(r'COOPVEC_OP\(\w+, "(\w+)"',
                     read(os.path.join(ROOT, "lib/Dialect/Ops.def")).decode())
    sources = b"".join(read(p) for p in sorted(
        os.path.join(d, f) for d, _, fs in os.walk(os.path.join(ROOT, "lib"))
        for f in fs if f.endswith(".c"))).decode("utf-8", "replace")
    passes = sorted(set(re.findall(r'\.argument = "([a-z0-9-]+)"', sources)))
    options = sorted(set(re.findall(r'\{"([a-z-]+)", CoopvecOption', sources)))
    ir = ['"coopvec.%s"' % op for op in ops] + [
        '"!coopvec.vec<"', '"!coopvec.matrix<"', '"row_major"', '"col_major"',
        '"inference"', '"training"', '"memref<?xf32>"', '"memref<?xf16>"',
        '"f16"', '"f32"', '"index"', '"vector<4xi1>"', '"func.func"',
        '"arith.constant"', '"scf.for"', '"func.call"', '"{transpose}"',
        '"{offset = "', '"strided<["', '"dense<"', '"0x7FC00000"']
    pipeline = ['"%s"' % p for p in passes] + ['"%s="' % o for o in options] + [
        '"builtin.module("', '"func.func("', '"any("', '"gpu.module("',
        '"{"', '"}"', '"cse"', '"canonicalize"', '"=true"', '"=false"',
        '"-1"', '"99999999999999999999"', '"x86-64-v3"', '"skylake-avx512"',
        '"aarch64-linux-gnu"', '"sm_80"']
    npy = ['"\\x93NUMPY"', '"\'descr\': "', '"\'<f4\'"', '"\'<f2\'"',
           '"\'<f8\'"', '"\'<i8\'"', '"\'>f4\'"', '"\'fortran_order\': "',
           '"False"', '"True"', '"\'shape\': ("', '", "', '"), }"']
    return {"ir": ir, "lower-cpu": ir, "interpreter": ir,
            "pipeline": pipeline, "npy": npy}


def write_corpus(out, name, seeds):
    directory = os.path.join(out, name)
    os.makedirs(directory, exist_ok=True)
    for seed in seeds:
        path = os.path.join(directory, hashlib.sha1(seed).hexdigest())
        with open(path, "wb") as f:
            f.write(seed)
    return len(set(seeds))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out")
    parser.add_argument("--npy-from", action="append", default=[])
    args = parser.parse_args()
    pieces = mlir_pieces()
    rng = random.Random(42)
    lower = [("// %s\n" % LOWER_OPTIONS[i % len(LOWER_OPTIONS)]).encode() + p
             for i, p in enumerate(pieces)]
    interp = [p + b"\0" + bytes(rng.randrange(256) for _ in range(256))
              for p in pieces if b"func.func" in p]
    corpora = {"ir": pieces, "lower-cpu": lower, "pipeline": pipelines(),
               "npy": npy_seeds(args.npy_from), "interpreter": interp}
    for name, seeds in sorted(corpora.items()):
        count = write_corpus(args.out, name, seeds)
        print("make-corpus: %s: %d seeds" % (name, count))
    for name, tokens in dictionaries().items():
        with open(os.path.join(args.out, name + ".dict"), "w") as f:
            f.write("\n".join(tokens) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
