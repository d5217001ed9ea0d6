#!/usr/bin/env python3
"""make_fixtures.py DIR - writes the .npy and raw fixtures of `cured sum`'s
tests by hand (struct, no numpy): data whose exact sums a naive float sum
gets wrong, and broken files."""
import struct
import sys

def npy(path, descr, shape, payload, version=1, fortran=False):
    header = "{'descr': '%s', 'fortran_order': %s, 'shape': (%s), }" % (
        descr, "True" if fortran else "False",
        "".join("%d, " % d for d in shape))
    pre = 10 if version == 1 else 12
    pad = 64 - (pre + len(header) + 1) % 64
    header += " " * pad + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY" + bytes([version, 0]))
        f.write(struct.pack("<H" if version == 1 else "<I", len(header)))
        f.write(header.encode("latin1"))
        f.write(payload)

d = sys.argv[1]
# f32: (2^30, 1, -2^30, 0.5) x 1000: exact 1500, naive f32 loses the ones
f32 = [2.0**30, 1.0, -2.0**30, 0.5] * 1000
npy(d + "/f32.npy", "<f4", (1000, 4), struct.pack("<%df" % len(f32), *f32))
npy(d + "/f32_be.npy", ">f4", (4000,), struct.pack(">%df" % len(f32), *f32), version=2)
# f64: (2^60, 1, -2^60) x 3: exact 3
f64 = [2.0**60, 1.0, -2.0**60] * 3
npy(d + "/f64.npy", "<f8", (9,), struct.pack("<9d", *f64))
# f16: (2048, 1, -2048) x 1000: exact 1000 (2049 is no f16)
f16 = [0x6800, 0x3c00, 0xe800] * 1000
npy(d + "/f16.npy", "<f2", (3000,), struct.pack("<3000H", *f16))
# i32: wraps
npy(d + "/i32.npy", "<i4", (2,), struct.pack("<2i", 2**31 - 1, 1))
# min/max order: -0 below +0, ties to the first index, NaN wins
mm = [3.0, -0.0, 0.0, -0.0, 7.0, 7.0]
npy(d + "/mm.npy", "<f4", (6,), struct.pack("<6f", *mm))
nan = [1.0, float("nan"), -5.0, float("inf")]
npy(d + "/nan.npy", "<f4", (4,), struct.pack("<4f", *nan))
infs = [1.0, float("inf"), -float("inf")]
npy(d + "/infs.npy", "<f8", (3,), struct.pack("<3d", *infs))
# raw bf16: 1.5, 2.5 (top halves of f32)
with open(d + "/bf16.raw", "wb") as f:
    f.write(struct.pack("<2H", 0x3fc0, 0x4020))
# broken files
npy(d + "/fortran.npy", "<f4", (2, 2), struct.pack("<4f", 1, 2, 3, 4), fortran=True)
npy(d + "/complex.npy", "<c8", (2,), b"\0" * 16)
npy(d + "/truncated.npy", "<f8", (100,), struct.pack("<3d", 1, 2, 3))
with open(d + "/badheader.npy", "wb") as f:
    f.write(b"\x93NUMPY\x01\x00\x10\x00garbage garbage\n")
with open(d + "/odd.raw", "wb") as f:
    f.write(b"\0" * 7)
