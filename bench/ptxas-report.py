#!/usr/bin/env python3
"""Resource report of the bench/mlp-gpu kernels from `ptxas -v`.

For each chip (default sm_80 and sm_90) the input is lowered with
`coopvec-opt --coopvec-lower-to-nvvm="chip=<chip> <pipeline options>"
--emit=ptx`, the PTX is assembled with `ptxas -arch=<chip> -v`, and per
kernel the report gives: threads per block (the PTX's `.reqntid` or
`.maxntid`), registers per thread, spill store and load bytes, stack frame,
static shared memory, and the theoretical occupancy.

spill_bytes in the `summary:` lines is the spill *store* bytes (ptxas's
"bytes spill stores"; the table has stores and loads). The goal line asks
for 0 spill stores and 0 spill loads in every forward kernel on every chip.

--autodiff F[,F...] first adds the gradient @F_grad of each named function
(`coopvec-autodiff{func=F input-gradients=false}`, as bench/mlp-gpu's
training step makes it), so the report has the training kernels too
(`F_grad_kernel`, not counted by the goal line). The smem column is the
shared memory a block takes: ptxas's static bytes plus, for a kernel past
48 KiB (workgroup-memory above 49152, whose buffers coopvec-prepare-nvvm
places in dynamic shared memory, which ptxas does not see), the kernel's
`coopvec.dynamic_workgroup_memory`, read from the same lowering stopped
before gpu-module-to-binary (the `dynamic` column).

Occupancy rules (CUDA's occupancy calculator, cuda_occupancy.h), the same
for sm_80 and sm_90 except the shared memory per SM:
  - registers: 65536 per SM, in 4 sub-partitions of 16384; a warp gets
    registers-per-thread x 32 rounded up to 256, and a warp lives in one
    sub-partition, so warps by registers = 4 x floor(16384 / per-warp);
  - warps: at most 64 per SM (2048 threads); a block of T threads takes
    ceil(T / 32) warps;
  - blocks: at most 32 per SM;
  - shared memory: 164 KiB per SM (sm_80) / 228 KiB (sm_90); a block takes
    its shared memory rounded up to 128 bytes plus 1 KiB the system
    reserves per block; static shared memory is limited to 48 KiB a block,
    static and dynamic together to 163 KiB (sm_80) / 227 KiB (sm_90).
Active blocks = the least of the four limits; occupancy = active warps / 64.
The limiter is the limit (or limits, when tied) that gave that least value.

Exit status: 0 with a report, 1 when coopvec-opt or ptxas fails (their
stderr is printed), 2 when a tool or the input is missing.
"""

import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

SCRIPT_DIR = os.path.dirname(os.path.abspath(__file__))
SRC_ROOT = os.path.dirname(SCRIPT_DIR)

REGS_PER_SM = 65536
SUB_PARTITIONS = 4
REG_ALLOC_UNIT = 256
MAX_WARPS = 64
MAX_BLOCKS = 32
SMEM_PER_SM = {"sm_80": 164 * 1024, "sm_90": 228 * 1024}
SMEM_ALLOC_UNIT = 128
SMEM_RESERVED = 1024
SMEM_STATIC_LIMIT = 48 * 1024
SMEM_BLOCK_LIMIT = {"sm_80": 163 * 1024, "sm_90": 227 * 1024}

RULES = ("occupancy rules: 65536 registers/SM (4 x 16384), per-warp "
         "registers rounded up to 256; max 64 warps and 32 blocks per SM; "
         "shared memory/SM 164 KiB (sm_80), 228 KiB (sm_90), +1 KiB reserved "
         "per block, 48 KiB static per block (163 / 227 KiB with dynamic); "
         "occupancy = active warps / 64")


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--coopvec-opt", default=None,
                   help="coopvec-opt binary (default: on PATH, then build/)")
    p.add_argument("--ptxas", default=None,
                   help="ptxas binary (default: /usr/local/cuda/bin, then PATH)")
    p.add_argument("--input", default=os.path.join(SRC_ROOT, "bench", "mlp-gpu.mlir"))
    p.add_argument("--chips", default="sm_80,sm_90")
    p.add_argument("--pipeline-options", default="",
                   help="extra coopvec-lower-to-nvvm options, e.g. 'register-elements=32'")
    p.add_argument("--autodiff", default="",
                   help="comma list of functions whose gradients (F_grad) to add first")
    return p.parse_args(argv)


def find_tool(given, name, before=(), after=()):
    """The tool's path, or None; an explicit path is taken as is (no search).

    ptxas is looked for in /usr/local/cuda/bin first, as test/lit.cfg.py does;
    coopvec-opt on PATH first, so that lit's build is the one reported.
    """
    if given:
        return given if os.access(given, os.X_OK) and os.path.isfile(given) else None
    search = os.pathsep.join(list(before) + [os.environ.get("PATH", "")] + list(after))
    return shutil.which(name, path=search)


def run(cmd):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True)


def lower(opt, input_path, chip, options, out):
    pipeline = " ".join(x for x in ("chip=" + chip, options.strip()) if x)
    cmd = [opt, input_path, "--coopvec-lower-to-nvvm=" + pipeline, "--emit=ptx", "-o", out]
    r = run(cmd)
    if r.returncode != 0:
        sys.stderr.write("error: lowering for %s failed: %s\n%s" % (chip, " ".join(shlex.quote(c) for c in cmd), r.stderr))
        sys.exit(1)


def block_sizes(ptx):
    """Threads per block of each .entry, from .reqntid or .maxntid.

    The directives sit between an entry's parameter list and its body's '{'.
    """
    sizes = {}
    for m in re.finditer(r"\.entry\s+([\w$.]+)\s*\(([^)]*)\)([^{]*)\{", ptx):
        d = re.search(r"\.(?:reqntid|maxntid)\s+(\d+)(?:\s*,\s*(\d+))?(?:\s*,\s*(\d+))?", m.group(3))
        if d:
            sizes[m.group(1)] = int(d.group(1)) * int(d.group(2) or 1) * int(d.group(3) or 1)
    return sizes


def assemble(ptxas, chip, ptx_path):
    r = run([ptxas, "-arch=" + chip, "-v", ptx_path, "-o", os.devnull])
    if r.returncode != 0:
        sys.stderr.write("error: ptxas -arch=%s failed:\n%s%s" % (chip, r.stdout, r.stderr))
        sys.exit(1)
    # ptxas -v writes its info lines to stderr (stdout too, in some versions).
    return r.stderr + r.stdout


def number(pattern, line):
    m = re.search(pattern, line)
    return int(m.group(1)) if m else None


def parse_ptxas(text):
    """Per entry function: registers, spills, stack, smem from ptxas -v.

    Only entries are kept: "Function properties for" also names device
    functions, whose lines must not overwrite a kernel's.
    """
    kernels, current = {}, None
    for line in text.splitlines():
        m = re.search(r"Compiling entry function '([^']+)'", line)
        if m:
            current = kernels.setdefault(m.group(1), {})
            continue
        m = re.search(r"Function properties for (\S+)", line)
        if m:
            current = kernels.get(m.group(1))
            continue
        if current is None:
            continue
        if "spill stores" in line:
            current["stack"] = number(r"(\d+) bytes stack frame", line)
            current["spill_stores"] = number(r"(\d+) bytes spill stores", line)
            current["spill_loads"] = number(r"(\d+) bytes spill loads", line)
        elif "Used" in line and "registers" in line:
            current["registers"] = number(r"Used (\d+) registers", line)
            current["smem"] = number(r"(\d+) bytes smem", line) or 0
    return kernels


def round_up(x, unit):
    return (x + unit - 1) // unit * unit


def occupancy(chip, threads, registers, smem, dynamic):
    """(active blocks, occupancy %, limiter) by the rules of the docstring."""
    warps = (threads + 31) // 32
    fits = smem - dynamic <= SMEM_STATIC_LIMIT and smem <= SMEM_BLOCK_LIMIT[chip]
    per_warp = round_up(max(registers, 1) * 32, REG_ALLOC_UNIT)
    smem_block = round_up(smem, SMEM_ALLOC_UNIT) + SMEM_RESERVED
    limits = {
        "registers": (REGS_PER_SM // SUB_PARTITIONS // per_warp) * SUB_PARTITIONS // warps,
        "warps": MAX_WARPS // warps,
        "blocks": MAX_BLOCKS,
        "shared memory": SMEM_PER_SM[chip] // smem_block if fits else 0,
    }
    if per_warp * warps > REGS_PER_SM:
        limits["registers"] = 0
    blocks = min(limits.values())
    limiter = ", ".join(k for k, v in limits.items() if v == blocks)
    return blocks, 100.0 * blocks * warps / MAX_WARPS, limiter


def natural(item):
    """Sort key: mlp_relu64_kernel before mlp_relu128_kernel (digits as numbers)."""
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", item[0])]


def differentiate(opt, input_path, functions, out):
    """input_path with @F_grad added for every F of `functions`."""
    passes = ",".join("coopvec-autodiff{func=%s input-gradients=false}" % f for f in functions)
    cmd = [opt, input_path, "--pass-pipeline=builtin.module(%s)" % passes, "-o", out]
    r = run(cmd)
    if r.returncode != 0:
        sys.stderr.write("error: coopvec-autodiff failed: %s\n%s" % (" ".join(shlex.quote(c) for c in cmd), r.stderr))
        sys.exit(1)


def dynamic_shared_memory(opt, input_path, chip, options):
    """Per kernel, the dynamic shared memory coopvec-prepare-nvvm placed."""
    pipeline = " ".join(x for x in ("chip=" + chip, options.strip(), "binary=false") if x)
    cmd = [opt, input_path, "--coopvec-lower-to-nvvm=" + pipeline]
    r = run(cmd)
    if r.returncode != 0:
        sys.stderr.write("error: lowering for %s failed: %s\n%s" % (chip, " ".join(shlex.quote(c) for c in cmd), r.stderr))
        sys.exit(1)
    sizes = {}
    for line in r.stdout.splitlines():
        m = re.search(r"llvm\.func @([\w$.]+)\(.*coopvec\.dynamic_workgroup_memory = (\d+)", line)
        if m:
            sizes[m.group(1)] = int(m.group(2))
    return sizes


def report_chip(opt, ptxas, args, chip, tmp, input_path):
    ptx_path = os.path.join(tmp, chip + ".ptx")
    lower(opt, input_path, chip, args.pipeline_options, ptx_path)
    with open(ptx_path) as f:
        sizes = block_sizes(f.read())
    dynamic = dynamic_shared_memory(opt, input_path, chip, args.pipeline_options)
    rows = []
    for name, k in sorted(parse_ptxas(assemble(ptxas, chip, ptx_path)).items(), key=natural):
        k.update(kernel=name, chip=chip, block=sizes.get(name), dynamic=dynamic.get(name, 0))
        k["smem"] = k.get("smem", 0) + k["dynamic"]
        if k["block"] and k.get("registers") is not None:
            k["blocks"], k["occupancy"], k["limiter"] = occupancy(chip, k["block"], k["registers"], k["smem"], k["dynamic"])
        rows.append(k)
    return rows


def fmt(v, spec="%s"):
    return "n/a" if v is None else spec % v


def print_report(rows, args):
    print("# ptxas -v report: %s" % os.path.basename(args.input))
    print("pipeline options: %s" % (args.pipeline_options or "(defaults)"))
    if args.autodiff:
        print("gradients added: %s" % args.autodiff)
    print(RULES)
    print("")
    print("| kernel | chip | block | registers | spill stores / loads (bytes) | stack (bytes) | smem (bytes) | dynamic (bytes) | occupancy % | limiter |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---|")
    for k in rows:
        print("| %s | %s | %s | %s | %s / %s | %s | %s | %s | %s | %s |" % (
            k["kernel"], k["chip"], fmt(k["block"]), fmt(k.get("registers")),
            fmt(k.get("spill_stores")), fmt(k.get("spill_loads")), fmt(k.get("stack")),
            fmt(k.get("smem")), fmt(k.get("dynamic")), fmt(k.get("occupancy"), "%.2f"),
            k.get("limiter", "n/a")))
    print("")
    for k in rows:
        print("summary: kernel=%s chip=%s block=%s registers=%s spill_bytes=%s smem=%s occupancy_pct=%s limiter=%s" % (
            k["kernel"], k["chip"], fmt(k["block"]), fmt(k.get("registers")),
            fmt(k.get("spill_stores")), fmt(k.get("smem")),
            fmt(k.get("occupancy"), "%.2f"), k.get("limiter", "n/a").replace(", ", "+").replace(" ", "-")))


def print_goal(rows):
    """Whether every forward kernel (W = 64 and W = 128 in mlp-gpu) spills nothing."""
    rows = [k for k in rows if not k["kernel"].endswith("_grad_kernel")]
    bad = ["%s on %s (%s stored, %s loaded)" % (k["kernel"], k["chip"], k.get("spill_stores"), k.get("spill_loads"))
           for k in rows if k.get("spill_stores") != 0 or k.get("spill_loads") != 0]
    if not rows:
        print("goal: 0 spill bytes at W = 64 and W = 128: UNKNOWN (no kernels)")
    elif bad:
        print("goal: 0 spill bytes at W = 64 and W = 128: NOT MET: " + "; ".join(bad))
    else:
        print("goal: 0 spill bytes at W = 64 and W = 128: MET (no kernel spills on %s)"
              % ", ".join(sorted({k["chip"] for k in rows})))


def main(argv):
    args = parse_args(argv)
    chips = [c.strip() for c in args.chips.split(",") if c.strip()]
    unknown = [c for c in chips if c not in SMEM_PER_SM]
    if unknown:
        sys.stderr.write("error: no occupancy rules for %s (known: %s)\n" % (", ".join(unknown), ", ".join(sorted(SMEM_PER_SM))))
        return 2
    # Check the tools before the slow lowering, so a missing one fails fast.
    ptxas = find_tool(args.ptxas, "ptxas", before=["/usr/local/cuda/bin"])
    if not ptxas:
        sys.stderr.write("error: ptxas not found (%s): install the CUDA toolkit or pass --ptxas PATH\n"
                         % (args.ptxas or "not in /usr/local/cuda/bin or on PATH"))
        return 2
    opt = find_tool(args.coopvec_opt, "coopvec-opt",
                    after=[os.path.join(SRC_ROOT, "build", "tools", "coopvec-opt")])
    if not opt:
        sys.stderr.write("error: coopvec-opt not found (%s): build it or pass --coopvec-opt PATH\n"
                         % (args.coopvec_opt or "not on PATH or in build/tools/coopvec-opt"))
        return 2
    if not os.path.isfile(args.input):
        sys.stderr.write("error: input %s not found\n" % args.input)
        return 2
    with tempfile.TemporaryDirectory(prefix="ptxas-report-") as tmp:
        input_path = args.input
        functions = [f.strip() for f in args.autodiff.split(",") if f.strip()]
        if functions:
            input_path = os.path.join(tmp, "with-gradients.mlir")
            differentiate(opt, args.input, functions, input_path)
        rows = [k for chip in chips for k in report_chip(opt, ptxas, args, chip, tmp, input_path)]
    print_report(rows, args)
    print_goal(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
