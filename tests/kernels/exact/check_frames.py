#!/usr/bin/env python3
"""check_frames.py - ptxas keeps cured_reduce's kernels out of local memory.

A value the compiler spills across a kernel's main loop is stored before
the loop streams its input and reloaded after it, in every thread's tail
(most likely from DRAM by then): that cost the exact f32 sum 5 % at 2^24
on the H200 with the same loop code (docs/results.md, "eighteenth
round"). The main
loops sit at the 64-register cap (__launch_bounds__(1024, 1)), where a
small change elsewhere in a kernel can start such a spill. This compiles
the kernels' source for the library's architecture and reads ptxas's
report (-Xptxas -v): every kernel's stack frame must be 0 bytes, or at
most what an --allow gives it.

    check_frames.py --nvcc NVCC --arch sm_XX [-I DIR]... SOURCE
                    [--allow MANGLED_SUBSTRING=BYTES]...

Prints each kernel's frame and spills, then one verdict line. Exits 0, 1
when a kernel has a larger frame than allowed (or none is reported), 2
on bad usage or when the compiler fails.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--nvcc", required=True)
    p.add_argument("--arch", required=True, help="e.g. sm_90")
    p.add_argument("-I", dest="includes", action="append", default=[])
    p.add_argument("--allow", action="append", default=[],
                   help="MANGLED_SUBSTRING=BYTES: the largest frame such kernels may have")
    p.add_argument("source")
    return p.parse_args()


def allowances(pairs):
    """The --allow pairs as (substring, bytes). Exits 2 on a malformed one."""
    out = []
    for a in pairs:
        name, _, size = a.rpartition("=")
        if not name or not size.isdigit():
            print(f"check_frames: --allow takes MANGLED_SUBSTRING=BYTES, not '{a}'", file=sys.stderr)
            sys.exit(2)
        out.append((name, int(size)))
    return out


def ptxas_report(args):
    """Compiles the source to a cubin. Returns ptxas's verbose report."""
    with tempfile.TemporaryDirectory() as d:
        cmd = [args.nvcc, "-cubin", f"-arch={args.arch}", "-O3", "-std=c++17", "-Xptxas", "-v",
               *[f"-I{i}" for i in args.includes], args.source, "-o", os.path.join(d, "k.cubin")]
        try:
            p = subprocess.run(cmd, capture_output=True, text=True)
        except OSError as e:
            print(f"check_frames: cannot run {args.nvcc}: {e.strerror}", file=sys.stderr)
            sys.exit(2)
    if p.returncode != 0:
        print(f"check_frames: {' '.join(cmd)} failed ({p.returncode}):\n{p.stderr[-2000:]}",
              file=sys.stderr)
        sys.exit(2)
    return p.stderr + p.stdout


def frames(report):
    """{mangled kernel: (frame, spill stores, spill loads)} from the report:
    each "Compiling entry function 'NAME'" line, then the first "N bytes
    stack frame, N bytes spill stores, N bytes spill loads" after it."""
    out, name = {}, None
    for line in report.splitlines():
        m = re.search(r"Compiling entry function '([^']+)'", line)
        if m:
            name = m.group(1)
            continue
        m = re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads",
                      line)
        if m and name is not None:
            out[name] = tuple(int(g) for g in m.groups())
            name = None
    return out


def demangled(names):
    """The names demangled by c++filt, or as they are without it."""
    try:
        p = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True, text=True)
        got = p.stdout.splitlines()
        if p.returncode == 0 and len(got) == len(names):
            return dict(zip(names, got))
    except OSError:
        pass
    return {n: n for n in names}


def main():
    args = parse_args()
    allowed = allowances(args.allow)
    found = frames(ptxas_report(args))
    if not found:
        print("check_frames: ptxas reported no kernel's stack frame")
        return 1
    pretty = demangled(sorted(found))
    bad = 0
    for name in sorted(found):
        frame, stores, loads = found[name]
        limit = max([b for s, b in allowed if s in name], default=0)
        ok = frame <= limit
        bad += not ok
        print(f"{'ok ' if ok else 'BAD'} frame {frame:4d} B (allowed {limit:3d}), spills "
              f"{stores:4d} B stored, {loads:4d} B loaded: {pretty[name]}")
    print(f"check_frames: {len(found)} kernels, {bad} with a stack frame past what is allowed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
