#!/usr/bin/env python3
"""test_model_round.py - the GPU's rounding of exact sums (round_warp.cuh
and wide_int.cuh's u160_round), run in the model on the CPU, against
Python's integers.

    test_model_round.py --cured build/cured --ptx round_entries.ptx --dir DIR

For each family (f16: 6 digits of 2^-24 units, f32: 16 of 2^-149, f64: 72
of 2^-1074) and output (f32, f64): builds exact sums S that stress the
warp's carry resolution and rounding (random sizes and signs; carry chains
of all-ones words and borrow chains of zero words across many digits and
across the lanes' registers; ties with and without a sticky bit far below;
subnormal, near-overflow and overflowing results; zero written as nonzero
digits), writes each as carry-save digits (a normalised form with random
amounts moved between neighbours, digits up to 2^61), runs all of a
family's cases in one `cured model` launch (one block per case), and
checks the normalised digits (words below the top in [0, 2^32), the top
0 or -1, the same S) and the bits against round_exact below, itself
checked against CPython's correctly rounded int/int division for f64.
Then the 160-bit rounding (u160_round, the short ways' one): signed
160-bit sums and their unit exponents, of every width (around 2^127, where
its own short way through the hardware's u64 conversion stops), with ties,
sticky bits, subnormal, near-overflow and overflowing results, against the
same oracle; the short way must take some and decline some.
Exits 1 on any mismatch, 2 when a tool fails.
"""
import os
import random
import struct
import subprocess
import sys

import model_cli

FAMILIES = {"f16": (6, -24, 15), "f32": (16, -149, 127), "f64": (72, -1074, 1023)}
FORMATS = {0: (24, -126, 127), 1: (53, -1022, 1023)}  # p, emin_norm, emax


def round_exact(s, emin, to_f64):
    """The bits of s * 2^emin rounded to nearest, ties to even."""
    p, emin_norm, emax = FORMATS[to_f64]
    sign_bit = 1 << (63 if to_f64 else 31)
    inf = 0x7FF0000000000000 if to_f64 else 0x7F800000
    m = abs(s)
    if m == 0:
        return 0
    e = m.bit_length() - 1 + emin
    if e > emax:
        bits = inf
    else:
        q = max(e, emin_norm) - (p - 1)  # exponent of the last kept bit
        shift = q - emin
        if shift <= 0:
            sig = m << -shift
        else:
            sig, rem = m >> shift, m & ((1 << shift) - 1)
            half = 1 << (shift - 1)
            if rem > half or (rem == half and sig & 1):
                sig += 1
        if e < emin_norm:
            bits = sig  # subnormal (a carry into the normal range is right too)
        else:
            bits = ((e + emax - 1) << (p - 1)) + sig
        bits = min(bits, inf)
    return bits | sign_bit if s < 0 else bits


def check_oracle(s, emin, bits):
    """Cross-checks round_exact with CPython for an f64 result."""
    try:
        v = (s * 2 ** emin if emin >= 0 else s / 2 ** -emin) if s else 0.0
        want = struct.unpack("<Q", struct.pack("<d", v))[0]
    except OverflowError:
        want = 0x7FF0000000000000 | (1 << 63 if s < 0 else 0)
    return want == bits


def sums(family, to_f64, r):
    """The exact sums (integers in units 2^emin) to test."""
    ndig, emin, _ = FAMILIES[family]
    p, emin_norm, emax = FORMATS[to_f64]
    limit = 32 * (ndig - 1) - 2  # |S| below 2^limit
    top = min(limit, emax + 2 - emin)  # sums that overflow start below here
    out = [0]
    for _ in range(60):  # random sizes and signs
        b = r.randrange(0, top)
        out.append(r.choice([-1, 1]) * (r.getrandbits(b) | 1 << b))
    for k in range(1, ndig - 2):  # chains over k words
        out += [(1 << 32 * k) - 1, 1 << 32 * k, -(1 << 32 * k), -((1 << 32 * k) - 1)]
        out.append(((1 << 32 * k) - 1) << 32 if 32 * k + 32 < limit else 1)
    for _ in range(20):  # ties, with and without a sticky bit far below
        e = r.randrange(max(0, emin_norm - emin), top - 2)
        shift = e - (p - 1)
        if shift < 1:
            continue
        sig = r.getrandbits(p - 1) | 1 << (p - 1)
        tie = (sig << shift) + (1 << (shift - 1))
        out += [tie, -tie, tie + 1, tie - 1, tie | 1 if shift > 1 else tie]
    for m in (1, 2, 3, (1 << (p - 1)) - 1, 1 << (p - 1), (1 << p) + 1):  # smallest
        out += [m, -m]
    edge = emin_norm - emin - (p - 1)  # units of the last bit at emin_norm
    if edge > 0:
        out += [((1 << p) - 1) << edge, (((1 << p) - 1) << edge) + (1 << (edge - 1))]
    big = emax - emin - (p - 1)  # the largest finite value, and past it
    if big + p + 1 < limit:
        mx = ((1 << p) - 1) << big
        out += [mx, -mx, mx + (1 << (big - 1)) - 1, mx + (1 << (big - 1)), 1 << (big + p + 1)]
    return out


def digits_of(s, ndig, r):
    """s as ndig carry-save int64 digits, with amounts moved between
    neighbours so that digits run up to 2^61."""
    d = [(s >> (32 * k)) & 0xFFFFFFFF for k in range(ndig - 1)]
    d.append(s >> (32 * (ndig - 1)))
    for _ in range(r.randrange(0, 3 * ndig)):
        k = r.randrange(ndig - 1)
        amount = r.randrange(-(1 << 29), 1 << 29)
        if abs(d[k] + (amount << 32)) < 1 << 61 and abs(d[k + 1] - amount) < 1 << 61:
            d[k] += amount << 32
            d[k + 1] -= amount
    return d


def run_entry(args, entry, count, arg_specs, outs):
    """Runs entry in `cured model` over count blocks of 32 threads with the
    --arg specs arg_specs; outs maps each output argument's name to the
    struct format of its values. Returns ({name: values}, None), or (None,
    why) when the model fails or reports a finding."""
    cmd = [args.cured, "model", "--ptx", args.ptx, "--entry", entry,
           "--grid", str(count), "--block", "32"]
    for spec in arg_specs:
        cmd += ["--arg", spec]
    paths = {name: os.path.join(args.dir, f"{entry}-{name}.bin") for name in outs}
    for name, path in paths.items():
        cmd += ["--out", f"{name}={path}"]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0 or "findings: none" not in p.stdout:
        return None, f"{entry}: cured model failed ({p.returncode}): {p.stdout[-400:]}{p.stderr[-400:]}"
    values = {}
    for name, fmt in outs.items():
        with open(paths[name], "rb") as fh:
            values[name] = struct.unpack(fmt, fh.read())
    return values, None


def run_family(args, family, to_f64, seed):
    """Runs one family's cases. Returns (mismatches, lines) or (None, why)."""
    ndig, emin, _ = FAMILIES[family]
    r = random.Random(seed)
    cases = sums(family, to_f64, r)
    digits = [digits_of(s, ndig, r) for s in cases]
    digits.append([1 << 32] + [-1] + [0] * (ndig - 2))  # zero, not written as zero
    cases.append(0)
    path = os.path.join(args.dir, f"digits-{family}-{to_f64}.bin")
    with open(path, "wb") as fh:
        for d in digits:
            fh.write(struct.pack(f"<{ndig}q", *d))
    count = len(cases)
    out, why = run_entry(args, f"round_{family}", count,
                         [f"digits=s64[]:file:{path}", f"bits=u64[{count}]:zeros",
                          f"normal=s64[{count * ndig}]:zeros", f"u32:{to_f64}"],
                         {"bits": f"<{count}Q", "normal": f"<{count * ndig}q"})
    if out is None:
        return None, [why]
    bits, normal = out["bits"], out["normal"]
    bad, lines = 0, []
    for i, s in enumerate(cases):
        want = round_exact(s, emin, to_f64)
        if to_f64 and not check_oracle(s, emin, want):
            return None, [f"{family}: the oracle disagrees with CPython for S = {s}"]
        norm = normal[i * ndig:(i + 1) * ndig]
        value = sum(norm[k] << (32 * k) for k in range(ndig))
        norm_ok = value == s and all(0 <= w < 1 << 32 for w in norm[:-1]) and norm[-1] in (0, -1)
        if bits[i] != want or not norm_ok:
            bad += 1
            lines.append(f"BAD {family} to_f64={to_f64} S={s}: bits {bits[i]:#x}, want {want:#x}"
                         f"{'' if norm_ok else ', normal digits wrong'}")
    lines.append(f"{'ok ' if not bad else 'BAD'} {family} to_f64={to_f64}: {count} sums, {bad} mismatches")
    return bad, lines


def sums160(family, to_f64, r):
    """(a, pos) pairs: a signed 160-bit sum a (|a| < 2^159) in units
    2^(pos + emin), pos >= 0, to round."""
    _, emin, _ = FAMILIES[family]
    p, emin_norm, emax = FORMATS[to_f64]
    span = emax - emin + 8  # pos past this overflows every nonzero a
    out = [(0, 0), (0, 100)]
    for width in list(range(1, 160, 3)) + [126, 127, 128, 129]:  # every size
        for _ in range(4):
            a = r.getrandbits(width) | 1 << (width - 1) if width < 159 else r.getrandbits(158)
            out.append((r.choice([-1, 1]) * a, r.randrange(0, span)))
    out += [(-(1 << 127), 0), (-(1 << 127), 30), ((1 << 127) - 1, 30), (1 << 127, 30)]
    for _ in range(40):  # ties, with and without a sticky bit, normal results
        shift = r.randrange(1, 158 - p)
        sig = r.getrandbits(p - 1) | 1 << (p - 1)
        tie = (sig << shift) + (1 << (shift - 1))
        e = r.randrange(emin_norm, emax)  # the result's exponent
        pos = e - (p - 1) - shift - emin
        if pos < 0:
            continue
        out += [(tie, pos), (-tie, pos), (tie + 1, pos), (tie - 1, pos)]
    for _ in range(1, 80):  # around the smallest normal, and the largest finite value
        lead = r.randrange(p + 2, 150)
        a = r.getrandbits(lead) | 1 << lead
        out.append((a, max(0, emin_norm - emin - lead + r.randrange(-2, 2))))
        out.append((-a, max(0, emax - emin - lead + r.randrange(-1, 2))))
    for _ in range(60):  # subnormal results, ties among them
        lead = r.randrange(1, 150)
        a = r.getrandbits(lead) | 1 << lead
        pos = r.randrange(emin_norm - p - 1, emin_norm) - lead - emin
        if pos < 0:
            continue  # f16 sums are multiples of 2^-24: no f32 subnormals
        out += [(a, pos), (-a, pos)]
        if lead > p:
            half = 1 << (lead - p)  # a tie at the subnormal's last bit, or near
            out += [((a >> (lead - p + 1) << (lead - p + 1)) | half, pos)]
    return out


def run_family160(args, family, to_f64, seed):
    """Runs u160_round over one family's cases. Returns (mismatches,
    lines) or (None, why)."""
    _, emin, _ = FAMILIES[family]
    r = random.Random(seed)
    cases = sums160(family, to_f64, r)
    count = len(cases)
    words_path = os.path.join(args.dir, f"words160-{family}-{to_f64}.bin")
    pos_path = os.path.join(args.dir, f"pos160-{family}-{to_f64}.bin")
    with open(words_path, "wb") as fh:
        for a, _ in cases:
            v = a % (1 << 160)
            fh.write(struct.pack("<5I", *[(v >> (32 * k)) & 0xFFFFFFFF for k in range(5)]))
    with open(pos_path, "wb") as fh:
        fh.write(struct.pack(f"<{count}i", *[q for _, q in cases]))
    out, why = run_entry(args, f"round160_{family}", count,
                         [f"words=u32[]:file:{words_path}", f"pos=s32[]:file:{pos_path}",
                          f"bits=u64[{count}]:zeros", f"short_way=u32[{count}]:zeros",
                          f"u32:{to_f64}"],
                         {"bits": f"<{count}Q", "short_way": f"<{count}I"})
    if out is None:
        return None, [why]
    bits, short = out["bits"], out["short_way"]
    bad, lines = 0, []
    for i, (a, q) in enumerate(cases):
        want = round_exact(a << q, emin, to_f64)
        if bits[i] != want:
            bad += 1
            lines.append(f"BAD round160 {family} to_f64={to_f64} a={a} pos={q}: bits {bits[i]:#x}, "
                         f"want {want:#x}{' (short way)' if short[i] else ''}")
    took = sum(1 for x in short if x)
    if took == 0 or took == count:
        bad += 1
        lines.append(f"BAD round160 {family} to_f64={to_f64}: the short way took {took} of {count}")
    lines.append(f"{'ok ' if not bad else 'BAD'} round160 {family} to_f64={to_f64}: {count} sums "
                 f"({took} by the short way), {bad} mismatches")
    return bad, lines


# The family and output pairs every run covers (f64 rounds only to f64).
PAIRS = [("f16", 0), ("f16", 1), ("f32", 0), ("f32", 1), ("f64", 1)]


def main():
    args = model_cli.parse(__doc__)
    total = 0
    for run, first_seed in ((run_family, 1), (run_family160, 11)):
        for seed, (family, to_f64) in enumerate(PAIRS):
            bad, lines = run(args, family, to_f64, first_seed + seed)
            print("\n".join(lines), flush=True)
            if bad is None:
                return 2
            total += bad
    print(f"test_model_round: {total} mismatches")
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
