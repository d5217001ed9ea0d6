#!/usr/bin/env python3
"""sizes_test.py - the sizes and times `cured animate` promises, and the
sums it draws.

    sizes_test.py CURED OUTDIR

The page of the lesson's four versions (and the catalogue) at n = 64 is
under 2 MB; the page at n = 1024 is written in under 2 s; the terminal
frames of every catalogue kernel at n = 1024 fit in 120 columns (and at
n = 64); and the value each kernel's last frame draws into out[0] is the
one `cured model` leaves in its out buffer for the same input. Prints what
it measured.
"""
import os
import re
import subprocess
import sys
import time


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def main():
    cured, outdir = sys.argv[1], sys.argv[2]
    os.makedirs(outdir, exist_ok=True)
    page = os.path.join(outdir, "page64.html")
    subprocess.run([cured, "animate", "--html", page], check=True, stdout=subprocess.DEVNULL)
    size = os.path.getsize(page)
    print("page, n = 64: %d bytes (%.0f KB)" % (size, size / 1024))
    if size >= 2 * 1024 * 1024:
        fail("the page at n = 64 is 2 MB or more")

    page = os.path.join(outdir, "page1024.html")
    best = None
    for _ in range(3):
        start = time.perf_counter()
        subprocess.run([cured, "animate", "--html", page, "--n", "1024"], check=True,
                       stdout=subprocess.DEVNULL)
        took = time.perf_counter() - start
        best = took if best is None else min(best, took)
    size = os.path.getsize(page)
    print("page, n = 1024: written in %.3f s (best of 3), %d bytes (%.0f KB)"
          % (best, size, size / 1024))
    if best >= 2.0:
        fail("the page at n = 1024 took %.2f s" % best)

    kernels = [line.split()[1] for line in subprocess.run(
        [cured, "list"], capture_output=True, text=True, check=True).stdout.splitlines()
        if line[:3].strip().isdigit()]
    widest = 0
    for k in kernels:
        for n in ("64", "1024"):
            r = subprocess.run([cured, "animate", k, "--n", n, "--no-color"],
                               capture_output=True, text=True)
            if r.returncode != 0:
                fail("%s --n %s: exit %d: %s" % (k, n, r.returncode, r.stderr))
            w = max(len(line) for line in r.stdout.splitlines())
            widest = max(widest, w)
            if w > 120:
                fail("%s --n %s: a line of %d columns" % (k, n, w))
    print("terminal: %d kernels at n = 64 and 1024, widest line %d columns"
          % (len(kernels), widest))

    for k in kernels:
        drawn = subprocess.run([cured, "animate", k, "--no-color"], capture_output=True,
                               text=True, check=True).stdout
        got = re.findall(r"out\[0\](?:←\S+)?=(-?[0-9]+)", drawn)
        model = subprocess.run([cured, "model", k, "--dtype", "u32", "--n", "64", "--block",
                                "64", "--print", "out"], capture_output=True, text=True).stdout
        want = re.search(r"^out u32\[[0-9]+\] = (-?[0-9]+)", model, re.M)
        if not got or want is None or got[-1] != want.group(1):
            fail("%s: drew out[0] = %s, the model's out[0] is %s"
                 % (k, got[-1] if got else None, want.group(1) if want else None))
    print("sums: the last frame of each of the %d kernels draws the model's out[0]"
          % len(kernels))
    return 0


if __name__ == "__main__":
    sys.exit(main())
