#!/usr/bin/env python3
"""test_model_reduce.py - cured_reduce's GPU kernels, run in the model on the
CPU, give the CPU path's bits.

    test_model_reduce.py --cured build/cured --ptx model_entries.ptx --dir DIR

For each case: writes an input (a data kind below, seeded), launches one
entry of model_entries.ptx in `cured model` with a given grid and block
(forced, as the GPU tests force them: one block of 32 threads with many
trips per thread, several blocks, 4096 blocks, thread-block clusters of
2 to 16 blocks, one cluster the whole grid or several; the entries named
_one_trip, which have no main loop, at n up to one trip of every thread,
the last vector of the grid included), the input misaligned by a few
elements or not, the F64 flag or not, and compares the result's bits
with `cured sum --device cpu` on the same elements, whose exactness CI
checks against an independent reference (tests/lib/test_reduce_cpu.c). It
also checks that the model found nothing (no out-of-bounds access, race or
uninitialised read) and that the kernel left the workspace's state zero
(the next call depends on it). Cases marked "state" run the sharded path's
state mode instead, where the kernel writes the exact sum's normalised
digits (shard_state.h): those are compared with the digits of the exact
sum that Python's integers make of the input (exact_digits), the digits
path checked on its own, the short ways declined. First it checks that
the PTX is the library's own, with the exact sums' thread-block cluster
path, and that the model lists none of its exact-sum kernels as one it
cannot run. Last, on data whose windows move often (CONTENTION), it also
checks the model's shared-atomic counts: a window's move sends the warp's
sum from one lane, so at most one wavefront in eight is a bank conflict.
Prints one line per case; exits 1 on any mismatch, 2 when a tool fails.

Data kinds (f32 bits; bf16 takes their top half):
  std       uniform in [-0.5, 0.5): what real data looks like
  spreadW   exponents uniform over the W binades below 1.0, random signs
            (W = 24: one window; 48: both; 60: past both, the slow path)
  zeros     60 % zeros, the rest in a few binades
  wide      exponents anywhere below 2^73, signs random: rebases and sacc
  cancel    pairs x, -x of random size, a small one now and then
  sub       subnormals and tiny numbers with a few normal ones
  lowsub    (f32) subnormals and the eight lowest normal binades, random
            signs: few enough binades for the one-block short way
  tiny      (f64) subnormals and numbers below 2^-982 (the lowest window,
            which takes the subnormals), each with its negation 64
            elements on, but for a few smallest subnormals: their count
            is the exact sum (n a multiple of 128)
  grow      exponents rising along the array: many rebases, then inf
            (f64: up to binade 2046, no inf)
  special   an infinity among normal numbers (at element n / 2; ninf,
            f16: minus infinity there)
  nan       a quiet NaN with a payload (f32 0x7fc00001; bf16 keeps 0x7fc0;
            f16 0x7e01) at element n / 3 among normal numbers
  infsK     +inf at element 0, -inf at element K, normal numbers else: with
            K in the last block's share (the first trip's vector R - 1 of
            R threads: element 4 (R - 1) for f32, 2 (R - 1) for f64), NaN
            only when the first block's special bits and the last one's
            both count
  byblockR.B.S  (f32, f64) element i in 16-byte vector v = i // W (W = 4
            f32, 2 f64), which thread v % R of a grid of R threads reads,
            in block (v % R) // B: exponents near 2^-30 (f64 2^-40) in the
            blocks whose (block // S) is odd, near 2^0 in the others,
            random signs (f32 with the F64 flag, so that the small ones
            show in the result): every block's warps share their units
            but blocks differ (neighbouring blocks: S = 1; blocks 32
            apart, with more than 32 blocks of 32 threads: S = 32), so
            the grid's sum adds block sums on two bases
  stepup    (f32, one block of 32 threads) binade 150 and 127 in the first
            trip, then 151, the large ones cancelling across threads: a
            window that took binade 151 without moving would round the
            small ones away
  pos1      positive, one binade: long sums at the window's top
  max       positive, in the top binade: the sum overflows f32 (or not,
            as f64)
  tieS      1, half an f32 ulp of 1 (2^-24; f64: 2^-53) and 2^-40 (f64:
            2^-60), then zeros: just above halfway, so the sum rounds up
            only when the bits below the round bit count; tieSL: 2^-L
            instead of 2^-40 (f32 tieS117: the sum's nonzero digits are 1
            .. 4, four; tieS149: 0 .. 4, five; either way the sticky bit
            lies three or four digits under the round bit's)
  tieE      1 + one ulp (odd), half an ulp, then zeros: exactly halfway,
            rounded to the even neighbour 1 + 2 ulps
  tieC      (f32) 1, 2^-24, 2^-46 and -(2^-46 - 2^-70), then zeros: just
            above halfway by 2^-70, in 47 binades (both windows, no slow
            path), so a sum of doubles that rounds (71 bits) lands on the
            tie: the short way through doubles (sum_double.cuh), in one
            block or one cluster, must refuse it (its error bound's
            interval meets the tie); so too tieS117
  tieH      (f16) 8200 times 65504, then 32 and 2^-24, then zeros: just
            above halfway for an f32 result, and 54 bits in units 2^-24,
            which the short way through doubles must refuse in a block of
            512 threads (16384 elements: past 8192, f16 does not try it)
  ddErr     (f64, n = 2048, one block of 256) 2^60, 1 and 2^-61 in thread
            0 (elements 0, 1 and 512), -2^60 and -1 in thread 1, 2^-40 in
            thread 2, zeros else: the exact sum 2^-40 + 2^-61 is a double,
            but a double-double loses the 2^-61 (its second double holds 1
            when it comes), so the nearest double to the pair is 2^-40; the
            one-block short way's certificate (sum_dd.cuh) must see its
            error bound and refuse it
  ddQ       (f64, n = 2048, one block of 256) 2^-54, 2^53 and 2^52 + 1 in
            thread 0 (elements 0, 1 and 512), zeros else: the exact sum
            3 2^52 + 1 + 2^-54 lies just above a tie, but the pair's second
            double, 1 once the tie's error comes, has lost 2^-54, and the
            pair rounds to the even 3 2^52; its error bound refuses that,
            and so does the exactness proof, but only if the smallest ulp
            it takes is 2^-54's, the thread's first element (without it,
            every element is a multiple of 1 and e far below 2^52)
  sticky    (f64, n = 2048) 2044 ones, half an ulp of their sum (2^-43),
            2^-61 + 2^-113 and -2^-61: just above halfway by a bit 2^-113,
            more than 64 bits under the round bit's word, so only the
            sticky bit of the rounding sees it
  warpsG    element i in binade range (i // G) % 8, 20 binades apart (150
            for f64), random signs: with G the elements one warp loads in
            a trip at block 256 (f32 128, bf16 256, f64 64), every warp of
            a one-block one-trip launch has a window of its own, which
            the block's short tail (exact_block_round) must refuse
  edgeW     the first half positive, odd last bits, in the binade just
            below 1.0 but every fourth W - 1 binades under it; the second
            half its negation; the smallest subnormal between them (n
            odd). With W the width of a window (or of two), a flush of f64
            accumulators runs up to the 2^53 bound of the exactness
            argument, so a window one binade too wide, or a flush too late,
            rounds somewhere; and the exact sum is that one subnormal, so
            the rounding shows in the result
  binfull   f32 and bf16: +-2^103 first (they cancel; the warp's windows
            rise to them), then bin 0's largest f32 (2^-102 less an ulp,
            2^47 - 2^23 of the bin's units; bf16 keeps its top 8 bits)
            again and again: 70000 a lane in one warp take a bin past
            2^63 unless the lane's bins are sent on by 2^16 terms
            (lane_bins_close; for f32, 2^16 + 4 already overflow)
  highB.W   f32 and bf16, as edgeW but in binade B and every eighth in
            B - W + 1 (one odd last bit in each bf16 vector, so a sum of
            the vector's eight needs W + 10 bits): for bf16's vector sums
            in f32 (add_a_presum), exact up to W = 14 and finite up to B =
            251
f64 only, for the slices' bounds: one warp's grid, where each lane adds
8192 elements between flushes, all of one sign: positive in lanes 0-15,
the same values negative in lanes 16-31; n odd, the last element the
smallest subnormal, which is then the exact sum, so that any rounding
shows:
  top       the largest of binade 1000: slice 0 ends a flush period at
            the top (or bottom) of its binade exactly
  rem1      2^116 - 2^77 - 2^63 units of its window (binade 1000's top):
            slices 0 and 1 take nearly their largest input every time
  rem2      (2^52 + 2^38 - 1) units of the window that two elements in
            4096 (at binade 1000) set: slice 2 takes nearly its largest
  huge      +-2^1023 (the window clamped at its highest), then the largest
            of binade 2031, just above that window: sacc
"""
import collections
import json
import math
import os
import random
import struct
import subprocess
import sys

import model_cli

SIZE = {"f32": 4, "bf16": 2, "f16": 2, "f64": 8, "i32": 4}
# the sharded path's state mode (shard_state.h): the kernel writes the
# special bits and the sum's normalised digits instead of a result
SHARD_KERNEL_STATE = 1 << 30
NDIG = {"f32": 16, "bf16": 16, "f16": 6, "f64": 72}  # xacc.h's digits a family


def exact_digits(dtype, data):
    """The exact sum of the finite elements in data as the state mode's
    digits: units of the family's smallest subnormal (2^-149 for f32 and
    bf16, 2^-24 f16, 2^-1074 f64), digits 0 .. ndig-2 in [0, 2^32) and the
    top one 0 or -1 (as u64), from Python's integers."""
    fmt = {"f32": ("<I", 8, 23), "bf16": ("<H", 8, 7), "f16": ("<H", 5, 10),
           "f64": ("<Q", 11, 52)}[dtype]
    code, ebits, fbits = fmt
    size = struct.calcsize(code)
    total = 0
    for (bits,) in struct.iter_unpack(code, data[:len(data) // size * size]):
        e = bits >> fbits & ((1 << ebits) - 1)
        frac = bits & ((1 << fbits) - 1)
        v = frac if e == 0 else (frac | 1 << fbits) << (e - 1)
        if dtype == "bf16":
            v <<= 16  # in f32's units
        total += -v if bits >> (ebits + fbits) else v
    ndig = NDIG[dtype]
    digits = [(total >> (32 * k)) & 0xFFFFFFFF for k in range(ndig - 1)]
    top = total >> (32 * (ndig - 1))
    assert top in (0, -1), "the sum is past the digits"
    return digits + [top & 0xFFFFFFFFFFFFFFFF]
WS_BYTES = 1024 + 4096 * 16  # cured_reduce_workspace_bytes()
# The entries whose kernels keep lane bins: SACC_LANE_BINS int64 a thread
# of dynamic shared memory (cured_reduce_dynamic_smem)
LANE_BINS_ENTRIES = ("exact_f32", "exact_bf16")
LANE_BINS_BYTES = 11 * 8
STATE_BYTES = 1024

# entry dtype kind n grid block [flags] [offset elements]; grid G, or GcC:
# G blocks in thread-block clusters of C; block B, or B:nobins: the launch
# gives the f32 and bf16 main loops' lane bins no dynamic shared memory
# (LANE_BINS_ENTRIES: their elements then take the superaccumulator's
# atomics, for the same sum); flags "state": the state mode, its digits
# checked against exact_digits
CASES = """
exact_f32 f32 std 0 1 32
exact_f32 f32 std 1 2 32
exact_f32 f32 std 3 1 32
exact_f32 f32 std 1000 1 64
exact_f32 f32 std 100003 7 256
exact_f32 f32 std 100003 3 64 0 3
exact_f32 f32 std 1000 4096 32
exact_f32 f32 spread24 100003 7 256
exact_f32 f32 spread48 100003 7 256
exact_f32 f32 spread48 50003 1 32
exact_f32 f32 spread60 100003 7 256
exact_f32 f32 spread60 50003 1 32 1
exact_f32 f32 zeros 100003 7 256
exact_f32 f32 wide 100003 7 256
exact_f32 f32 wide 30011 1 32 0 1
exact_f32 f32 wide 100003 7 256:nobins
exact_f32 f32 wide 300007 2 1024
exact_f32 f32 binfull 2240003 1 32
exact_f32 f32 spread60 50003 1 32:nobins
exact_f32 f32 cancel 100003 5 128
exact_f32 f32 sub 50003 2 64
exact_f32 f32 grow 50003 2 64
exact_f32 f32 special 50003 5 128
exact_f32 f32 infs2556 50003 5 128
exact_f32 f32 nan 50003 5 128
exact_f32 f32 pos1 262147 1 32
exact_f32 f32 byblock64.32.1 20000 2 32 1
exact_f32 f32 std 65536 7 256
exact_f32 f32 cancel 65536 5 128
exact_bf16 bf16 std 131072 3 64
exact_f16 f16 std 131072 6 128
exact_f64 f64 std 65536 5 128
exact_f32 f32 byblock2048.32.32 100000 64 32 1
exact_f32 f32 edge24 100003 3 64
exact_f32 f32 edge25 100003 3 64
exact_f32 f32 edge48 100003 3 64
exact_f32 f32 edge49 50003 1 32
exact_f32 f32 edge24 100003 1 32
exact_bf16 bf16 std 100003 7 256
exact_bf16 bf16 std 100003 3 64 0 5
exact_bf16 bf16 spread48 100003 7 256
exact_bf16 bf16 spread48 50003 1 32
exact_bf16 bf16 spread60 100003 3 64 0 7
exact_bf16 bf16 zeros 100003 4 128 1
exact_bf16 bf16 wide 100003 3 256
exact_bf16 bf16 wide 100003 3 256:nobins
exact_bf16 bf16 wide 300007 1 1024
exact_bf16 bf16 binfull 2240003 1 32
exact_bf16 bf16 cancel 100003 5 128 1
exact_bf16 bf16 sub 50003 2 64
exact_bf16 bf16 grow 50003 2 64
exact_bf16 bf16 special 50003 3 64
exact_bf16 bf16 nan 50003 3 64
exact_bf16 bf16 pos1 262147 1 32
exact_f32 f32 stepup 16384 1 32 1
exact_f32 f32 stepup 16384 1 32
exact_bf16 bf16 edge40 100003 3 64
exact_bf16 bf16 edge41 100003 3 64
exact_bf16 bf16 edge80 100003 3 64
exact_bf16 bf16 edge40 200003 1 32
exact_bf16 bf16 high126.14 100003 3 64
exact_bf16 bf16 high126.15 100003 3 64
exact_bf16 bf16 high251.14 100003 3 64
exact_bf16 bf16 high252.14 100003 3 64
exact_f16 f16 std 100003 7 256
exact_f16 f16 std 100003 3 64 0 3
exact_f16 f16 special 100003 7 256
exact_f16 f16 ninf 100003 7 256
exact_f16 f16 nan 100005 3 64
exact_f16 f16 infs4095 100003 3 64
exact_f16 f16 infs4095 100003 3 64 0 2
exact_f64 f64 std 0 1 32
exact_f64 f64 std 7 2 32 0 1
exact_f64 f64 std 100003 7 256
exact_f64 f64 std 100003 3 64 0 1
exact_f64 f64 spread24 100003 7 256
exact_f64 f64 spread48 100003 7 256
exact_f64 f64 spread60 50003 1 32
exact_f64 f64 wide 100003 7 256
exact_f64 f64 wide 30011 1 32
exact_f64 f64 cancel 100003 5 128
exact_f64 f64 sub 50003 3 64
exact_f64 f64 tiny 50048 3 64
exact_f64 f64 special 50003 3 64
exact_f64 f64 infs382 50003 3 64
exact_f64 f64 pos1 131072 1 32
exact_f64 f64 byblock64.32.1 20000 2 32
exact_f64 f64 byblock2048.32.32 50000 64 32
exact_f64 f64 std 100003 4096 96
exact_f64 f64 pos1 262147 1 32 0 1
exact_f64 f64 edge64 100003 3 64
exact_f64 f64 edge65 100003 3 64
exact_f64 f64 edge64 50003 1 32
exact_f64 f64 top 1048577 1 32
exact_f64 f64 rem1 1048577 1 32
exact_f64 f64 rem2 1048577 1 32
exact_f32_one_trip f32 std 0 1 32
exact_f32_one_trip f32 std 3 1 32 0 1
exact_f32_one_trip f32 std 512 1 32
exact_f32_one_trip f32 std 512 1 32 0 3
exact_f32_one_trip f32 spread48 2048 2 64
exact_f32_one_trip f32 special 1000 1 64
exact_f32_one_trip f32 cancel 28672 7 256
exact_bf16_one_trip bf16 spread48 2048 1 64
exact_bf16_one_trip bf16 std 2048 1 64 0 5
exact_f16_one_trip f16 special 1024 1 32
exact_f16_one_trip f16 special 1025 1 32 0 1
exact_f16_one_trip f16 ninf 8190 1 256
exact_f16_one_trip f16 nan 3003 1 96
exact_f16_one_trip f16 infs511 2048 1 64
exact_f16_one_trip f16 std 1000 1 32 0 3
exact_f64_one_trip f64 wide 2048 2 128
exact_f32_one_trip f32 std 4096 1 256
exact_f32_one_trip f32 cancel 4095 1 256
exact_f32_one_trip f32 sub 4096 1 256 0 1
exact_f32_one_trip f32 lowsub 4096 1 256
exact_f32_one_trip f32 lowsub 4093 1 256 1 3
exact_f32_one_trip f32 warps128 4096 1 256
exact_f32_one_trip f32 warps128 4096 1 256 1
exact_f32_one_trip f32 sub 4096 1 256 1 1
exact_f32_one_trip f32 max 4096 1 256
exact_f32_one_trip f32 max 4096 1 256 1
exact_bf16_one_trip bf16 warps256 8192 1 256
exact_f16_one_trip f16 std 8192 1 256
exact_f64_one_trip f64 std 2048 1 256
exact_f64_one_trip f64 cancel 2047 1 256
exact_f64_one_trip f64 warps64 2048 1 256
exact_f32_one_trip f32 std 1500 1 96
exact_f16_one_trip f16 std 3000 1 96
exact_f64_one_trip f64 std 700 1 96
exact_f64_one_trip f64 std 8192 1 1024
exact_f32_one_trip f32 std 12000 1 768
exact_f16_one_trip f16 std 30000 1 1024
exact_f32 f32 edge24 100003 1 256
exact_f32_one_trip f32 tieS 4096 1 256
exact_f32_one_trip f32 tieC 4096 1 256
exact_f16_one_trip f16 tieH 16384 1 512
exact_f32_one_trip f32 tieE 4096 1 256
exact_f64_one_trip f64 tieS 2048 1 256
exact_f64_one_trip f64 tieE 2048 1 256
exact_f64_one_trip f64 ddErr 2048 1 256
exact_f64_one_trip f64 ddQ 2048 1 256
exact_f64_one_trip f64 tiny 2048 1 256
exact_f64_one_trip f64 sub 2048 1 256
exact_f64_one_trip f64 special 1000 1 64
exact_f64_one_trip f64 infs510 2048 1 256
exact_f64_one_trip f64 spread48 1000 1 128 0 1
exact_f32 f32 tieS117 65536 16 256
exact_f32 f32 tieS149 65536 16 256
exact_f32_one_trip f32 tieS117 4096 1 256
exact_f32 f32 tieS117 65536 16c16 256
exact_f32 f32 tieS149 65536 16c16 256 1
exact_f64_one_trip f64 sticky 2048 1 256
exact_f64_one_trip f64 pos1 8192 1 1024
exact_f32_one_trip f32 max 16384 1 1024 1
exact_f64 f64 edge64 50003 1 256
exact_f64_one_trip f64 std 256 1 32 0 1
exact_f64_one_trip f64 cancel 512 2 32
exact_f64 f64 huge 262145 1 32
argmin_f32 f32 wide 100003 7 256 0 3
argmax_f16 f16 std 100003 7 256 0 5
sum_i32 i32 std 100003 7 256 0 1
sum_i32 i32 std 4096 1 256
sum_i32 i32 std 100003 1 32
sum_i32 i32 std 5000 3 64 0 2
sum_i32_one_trip i32 std 4096 1 256
sum_i32_one_trip i32 std 4093 1 256 0 3
sum_i32_one_trip i32 std 0 1 32
sum_i32_one_trip i32 std 1 1 32
sum_i32_one_trip i32 std 28672 7 256 0 1
sum_i32_one_trip i32 std 1024 1 1024
argmin_f32_one_trip f32 wide 4096 1 256
argmin_f32_one_trip f32 wide 4095 1 256 0 1
argmin_f32_one_trip f32 special 2048 2 64
argmin_f32_one_trip f32 wide 28672 7 256 0 3
argmax_f16_one_trip f16 std 8192 1 256
argmax_f16_one_trip f16 std 8189 1 256 0 3
argmax_f16_one_trip f16 special 4096 2 128 0 5
exact_f32_one_trip f32 std 65536 16c16 256
exact_f32_one_trip f32 std 65536 16c16 256 1
exact_f32_one_trip f32 std 65533 16c16 256 0 3
exact_f32_one_trip f32 wide 65536 16c16 256
exact_f32_one_trip f32 cancel 65536 16c16 256
exact_f32_one_trip f32 lowsub 65536 16c16 256
exact_f32_one_trip f32 zeros 65536 16c16 256
exact_f32_one_trip f32 tieC 65536 16c16 256
exact_f32_one_trip f32 tieS117 65536 16c16 256
exact_f32_one_trip f32 tieE 65536 16c16 256
exact_f32_one_trip f32 max 65536 16c16 256
exact_f32_one_trip f32 max 65536 16c16 256 1
exact_f32_one_trip f32 special 65536 16c16 256
exact_f32_one_trip f32 nan 60000 16c16 256 0 1
exact_f32_one_trip f32 std 8000 4c4 128 0 1
exact_f32_one_trip f32 std 131072 16c16 512
exact_f32_one_trip f32 wide 100003 16c16 512 0 1
exact_f32_one_trip f32 tieS117 131072 16c16 512
exact_f32_one_trip f32 std 65537 8c8 512 1
exact_f32_one_trip f32 std 0 2c2 32
exact_f32_one_trip f32 std 1 2c2 32
exact_f32_one_trip f32 std 16384 1 1024
exact_f32_one_trip f32 spread48 4096 1 256
exact_f32_one_trip f32 wide 12000 1 768 0 2
exact_f32 f32 std 100003 16c16 256
exact_f32 f32 std 100003 16c16 256 0 1
exact_f64 f64 std 100003 8c8 128 0 3
exact_f64_one_trip f64 std 16384 8c8 256
exact_f32_one_trip f32 std 8192 2c2 256
exact_f32 f32 wide 100003 8c4 128
exact_f32 f32 spread60 100003 4c4 64
exact_f32 f32 special 50003 4c2 64
exact_f32 f32 cancel 100003 6c3 64 1
exact_bf16 bf16 spread48 100003 4c4 128
exact_f16_one_trip f16 std 32768 4c4 256
exact_f64 f64 tiny 50048 4c2 64
exact_f32 f32 std 100003 7 256 state
exact_f32 f32 cancel 100003 5 128 state 3
exact_f32_one_trip f32 std 4096 1 256 state
exact_f32 f32 wide 100003 1 32 state
exact_f32 f32 std 100003 16c16 256 state
exact_f32_one_trip f32 std 65536 16c16 256 state
exact_f64 f64 wide 100003 8c4 128 state
exact_f64_one_trip f64 std 2048 1 256 state
exact_f32_one_trip f32 std 12000 1 768 state
exact_f64_one_trip f64 std 8000 1 1024 state
exact_bf16 bf16 std 100003 4c2 128 state
exact_f16_one_trip f16 std 32768 4c4 256 state
"""


def f32_bits(sign, e, frac):
    return (sign << 31) | (e << 23) | frac


def tie_element(kind, i, bits, one, p, low):
    """Element i of tieS or tieE in a format whose 1.0 has the biased
    exponent one and whose significand has p bits; bits(sign, e, frac)
    builds an element; low: tieS's last element is 2^-low."""
    if kind.startswith("tieS"):
        low = int(kind[4:]) if len(kind) > 4 else low
        e = one - low  # 2^-low: normal, or a subnormal below exponent 1
        tiny = bits(0, e, 0) if e >= 1 else bits(0, 0, 1 << (e - 1 + p - 1))
        first = [bits(0, one, 0), bits(0, one - p, 0), tiny]
    else:
        first = [bits(0, one, 1), bits(0, one - p, 0)]
    return first[i] if i < len(first) else 0


def infinity_at(kind, i, n):
    """special: +1 at element n // 2; infsK: +1 at element 0, -1 at element
    K; 0 elsewhere (the sign of the infinity element i is, if any)."""
    if kind == "special":
        return 1 if i == n // 2 else 0
    return 1 if i == 0 else -1 if i == int(kind[4:]) else 0


def byblock_odd(kind, i, w):
    """byblockR.B.S with w elements to a vector: whether element i lies in
    a block whose (block // S) is odd."""
    R, B, S = (int(x) for x in kind[7:].split("."))
    return (i // w % R) // B // S % 2 == 1


def narrow_element(kind, i, n, r, seed):
    """The f32 bits of element i of a kind."""
    if kind == "std":
        x = r.getrandbits(24) * 2.0 ** -24 - 0.5
        return struct.unpack("<I", struct.pack("<f", x))[0]
    if kind.startswith("spread"):
        e = 126 - r.randrange(int(kind[6:]))
        return f32_bits(r.getrandbits(1), max(e, 0), r.getrandbits(23))
    if kind == "zeros":
        if r.random() < 0.6:
            return 0
        return f32_bits(r.getrandbits(1), 120 + r.randrange(5), r.getrandbits(23))
    if kind == "wide":
        return f32_bits(r.getrandbits(1), r.randrange(0, 200), r.getrandbits(23))
    if kind == "cancel":
        rr = random.Random(seed * 1000003 + i // 2)
        if i % 1001 == 5:
            return f32_bits(0, 3, 1)
        return f32_bits(i & 1, rr.randrange(1, 200), rr.getrandbits(23))
    if kind == "sub":
        return f32_bits(r.getrandbits(1), r.choice([0, 0, 1, 2, 30]), r.getrandbits(23))
    if kind == "lowsub":
        return f32_bits(r.getrandbits(1), r.randrange(0, 9), r.getrandbits(23))
    if kind == "grow":
        return f32_bits(0, min(254, 10 + (i * 240) // max(n, 1)), r.getrandbits(23))
    if kind == "nan":
        if i == n // 3:
            return 0x7FC00001
        return f32_bits(r.getrandbits(1), 100 + r.randrange(20), r.getrandbits(23))
    if kind == "special" or kind.startswith("infs"):
        inf = infinity_at(kind, i, n)
        if inf:
            return f32_bits(inf < 0, 255, 0)
        return f32_bits(r.getrandbits(1), 100 + r.randrange(20), r.getrandbits(23))
    if kind.startswith("byblock"):
        e = 97 if byblock_odd(kind, i, 4) else 127
        return f32_bits(r.getrandbits(1), e + r.randrange(3), r.getrandbits(23))
    if kind == "binfull":
        if i < 2:
            return f32_bits(i, 230, 0)
        return f32_bits(0, 24, 0x7FFFFF)
    if kind == "stepup":
        return stepup_element(i, seed)
    if kind == "pos1":
        return f32_bits(0, 150, r.getrandbits(23))
    if kind == "max":
        return f32_bits(0, 254, r.getrandbits(23))
    if kind.startswith("tieS") or kind == "tieE":
        return tie_element(kind, i, f32_bits, 127, 24, 40)
    if kind == "tieC":
        first = [f32_bits(0, 127, 0), f32_bits(0, 103, 0), f32_bits(0, 81, 0),
                 f32_bits(1, 80, 2**23 - 1)]
        return first[i] if i < len(first) else 0
    if kind.startswith("warps"):
        return f32_bits(r.getrandbits(1), 60 + 20 * ((i // int(kind[5:])) % 8),
                        r.getrandbits(23))
    if kind.startswith("edge"):
        # the last bit a bf16 keeps is bit 16: odd for both formats
        e = 127 - int(kind[4:]) if i % 4 == 3 else 126
        return f32_bits(0, e, r.getrandbits(23) | 1 << 16 | 1)
    if kind.startswith("high"):
        top, w = (int(x) for x in kind[4:].split("."))
        e = top - w + 1 if i % 8 == 7 else top
        return f32_bits(0, e, r.getrandbits(23) | 1 << 16 | 1)
    raise ValueError(kind)


def f64_element(kind, i, n, r, seed):
    """The f64 bits of element i of a kind."""
    def bits(sign, e, frac):
        return (sign << 63) | (e << 52) | frac
    if kind == "std":
        x = r.getrandbits(53) * 2.0 ** -53 - 0.5
        return struct.unpack("<Q", struct.pack("<d", x))[0]
    if kind.startswith("spread"):
        return bits(r.getrandbits(1), 1022 - r.randrange(int(kind[6:])), r.getrandbits(52))
    if kind == "grow":
        return bits(0, min(2046, 10 + (i * 2000) // max(n, 1)), r.getrandbits(52))
    if kind == "wide":
        return bits(r.getrandbits(1), r.randrange(0, 1900), r.getrandbits(52))
    if kind == "cancel":
        rr = random.Random(seed * 1000003 + i // 2)
        if i % 1001 == 5:
            return bits(0, 3, 1)
        return bits(i & 1, rr.randrange(1, 1900), rr.getrandbits(52))
    if kind == "sub":
        return bits(r.getrandbits(1), r.choice([0, 0, 1, 2, 500]), r.getrandbits(52))
    if kind == "tiny":
        if (i // 128) % 8 == 3 and i % 64 in (6, 7):
            return 1
        rr = random.Random(seed * 1000003 + (i // 128) * 64 + i % 64)
        return bits((i // 64) % 2, rr.choice([0, 0, 1, 2, 40]), rr.getrandbits(52))
    if kind == "special" or kind.startswith("infs"):
        inf = infinity_at(kind, i, n)
        if inf:
            return bits(inf < 0, 2047, 0)
        return bits(r.getrandbits(1), 1000 + r.randrange(20), r.getrandbits(52))
    if kind.startswith("byblock"):
        e = 983 if byblock_odd(kind, i, 2) else 1023
        return bits(r.getrandbits(1), e + r.randrange(3), r.getrandbits(52))
    if kind == "pos1":
        return bits(0, 1000, r.getrandbits(52))
    if kind.startswith("tieS") or kind == "tieE":
        return tie_element(kind, i, bits, 1023, 53, 60)
    if kind == "ddErr":
        at = {0: bits(0, 1083, 0), 1: bits(0, 1023, 0), 512: bits(0, 962, 0),
              2: bits(1, 1083, 0), 3: bits(1, 1023, 0), 4: bits(0, 983, 0)}
        return at.get(i, 0)
    if kind == "ddQ":
        at = {0: bits(0, 969, 0), 1: bits(0, 1076, 0), 512: bits(0, 1075, 1)}
        return at.get(i, 0)
    if kind == "sticky":
        tail = [bits(0, 980, 0), bits(0, 962, 1), bits(1, 962, 0), 0]
        return bits(0, 1023, 0) if i < n - 4 else tail[i - (n - 4)]
    if kind.startswith("warps"):
        return bits(r.getrandbits(1), 200 + 150 * ((i // int(kind[5:])) % 8),
                    r.getrandbits(52))
    if kind.startswith("edge"):
        e = 1023 - int(kind[4:]) if i % 4 == 3 else 1022
        return bits(0, e, r.getrandbits(52) | 1)
    if kind in ("top", "rem1", "rem2", "huge"):
        if i == n - 1:
            return 1
        sign = (i // 2) % 32 >= 16  # the lane of a one-warp grid
        if kind == "top":
            return bits(sign, 1000, 2**52 - 1)
        if kind == "rem1":
            return bits(sign, 1000, 2**52 - 2**14 - 1)
        if kind == "rem2":
            return bits(sign, 1000, 0) if i % 4096 in (0, 32) else bits(sign, 937, 2**38 - 1)
        return bits(sign, 2046, 0) if i in (0, 32) else bits(sign, 2031, 2**52 - 1)
    raise ValueError(kind)


def stepup_element(i, seed):
    """Element i of stepup (f32, one block of 32 threads, whose trip k reads
    vectors 128 k .. 128 k + 127, vector v in thread v % 32): in the first
    trip, the first element of each vector in binade 150, the rest in
    binade 127 (positive); later, every element in binade 151. The binade
    150 and 151 elements of threads 2m and 2m + 1 cancel (the same
    magnitude, signs by the thread's parity), so the exact sum is the
    binade 127 elements' alone, in units 2^-23; a thread that kept binade
    151 in the window its first trip set (A's top binade 150) would round
    them away once its 64 same-signed adds pass 2^53 units."""
    v = i // 4
    thread, trip = v % 32, v // 128
    big = trip > 0 or i % 4 == 0
    if not big:
        return f32_bits(0, 127, random.Random(seed * 7919 + i).getrandbits(23) | 1)
    rr = random.Random(seed * 1000003 + (v - thread % 2) * 4 + i % 4)
    return f32_bits(thread % 2, 151 if trip > 0 else 150, rr.getrandbits(23))


def f16_element(kind, i, n, r):
    """The f16 bits of element i of a kind (std otherwise: any finite f16,
    random sign, exponent and fraction)."""
    if kind in ("special", "ninf") and i == n // 2:
        return 0x7C00 if kind == "special" else 0xFC00
    if kind == "nan" and i == n // 3:
        return 0x7E01
    inf = infinity_at(kind, i, n) if kind.startswith("infs") else 0
    if inf:
        return 0x7C00 if inf > 0 else 0xFC00
    if kind == "tieH":
        return 0x7BFF if i < 8200 else 0x5000 if i == 8200 else 1 if i == 8201 else 0
    return (r.getrandbits(1) << 15) | (r.randrange(0, 31) << 10) | r.getrandbits(10)


def make_input(dtype, kind, count, seed):
    """count elements of a kind as little-endian bytes."""
    r = random.Random(seed)
    out = bytearray()
    if kind.startswith(("edge", "high")):
        return edge_input(dtype, kind, count, r, seed)
    for i in range(count):
        if dtype in ("f32", "bf16"):
            v = narrow_element(kind, i, count, r, seed)
            out += struct.pack("<I", v) if dtype == "f32" else struct.pack("<H", v >> 16)
        elif dtype == "f16":
            out += struct.pack("<H", f16_element(kind, i, count, r))
        elif dtype == "f64":
            out += struct.pack("<Q", f64_element(kind, i, count, r, seed))
        else:
            out += struct.pack("<i", r.randrange(-8, 8))
    return bytes(out)


def edge_input(dtype, kind, count, r, seed):
    """An edge kind: the first half as narrow_element/f64_element make it,
    the second half its negation, one element in the middle (count odd)
    the smallest subnormal: the exact sum is that element alone."""
    half = count // 2
    if dtype == "f64":
        first = [f64_element(kind, i, count, r, seed) for i in range(half)]
        sign, tiny, fmt = 1 << 63, 1, "<Q"
    else:
        first = [narrow_element(kind, i, count, r, seed) for i in range(half)]
        if dtype == "bf16":
            first = [v >> 16 for v in first]
        sign, tiny = (1 << 15, 1) if dtype == "bf16" else (1 << 31, 1)
        fmt = "<H" if dtype == "bf16" else "<I"
    values = first + ([tiny] if count % 2 else []) + [v ^ sign for v in first]
    return b"".join(struct.pack(fmt, v) for v in values)


# What judge needs of a launched case: its fields, its input and files.
Launched = collections.namedtuple(
    "Launched", "dtype state flags off op size data part out ws to_f64 out_n")


def launch(args, case, seed):
    """Launches one case's entry in the model. Returns (p, Launched), p the
    finished `cured model` process, or (None, what failed) when the model
    failed or found something."""
    f = case.split()
    entry, dtype, kind, n, grid, block = f[0], f[1], f[2], int(f[3]), f[4], f[5]
    state = len(f) > 6 and f[6] == "state"
    flags = SHARD_KERNEL_STATE if state else int(f[6]) if len(f) > 6 else 0
    off = int(f[7]) if len(f) > 7 else 0
    op = "argmin" if entry.startswith("argmin") else "argmax" if entry.startswith("argmax") else "sum"
    size = SIZE[dtype]
    data = make_input(dtype, kind, n + off, seed)
    whole = os.path.join(args.dir, "whole.bin")
    part = os.path.join(args.dir, "part.bin")
    out = os.path.join(args.dir, "out.bin")
    ws = os.path.join(args.dir, "ws.bin")
    with open(whole, "wb") as fh:
        fh.write(data + bytes(16))  # never empty; the kernel reads n only
    with open(part, "wb") as fh:
        fh.write(data[off * size:])
    to_f64 = dtype == "f64" or (flags & 1)
    out_t = "i64" if op != "sum" else ("f64" if to_f64 else ("i32" if dtype == "i32" else "f32"))
    out_n = 1 + NDIG[dtype] if state else 1
    grid, _, cluster = grid.partition("c")
    block, _, nobins = block.partition(":")
    bins = 0 if nobins or entry not in LANE_BINS_ENTRIES else int(block) * LANE_BINS_BYTES
    cmd = [args.cured, "model", "--ptx", args.ptx, "--entry", entry, "--grid", grid,
           "--block", block] + (["--cluster", cluster] if cluster else []) + (
           ["--shared", str(bins)] if bins else []) + ["--arg", f"in=u8[]:file:{whole}", "--arg", f"out={'u64' if state else out_t}[{out_n}]:zeros",
           "--arg", f"u64:{n}", "--arg", f"ws=u8[{WS_BYTES}]:zeros", "--arg", f"u32:{flags}",
           "--arg", f"u32:{off * size}", "--out", f"out={out}", "--out", f"ws={ws}"]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0 or "findings: none" not in p.stdout:
        found = [l for l in p.stdout.splitlines() if l.startswith(("error:", "hazard:"))]
        said = "\n  ".join(found[:3]) if found else p.stdout[-400:] + p.stderr[-400:]
        return None, f"{case}: cured model failed ({p.returncode}):\n  {said}"
    return p, Launched(dtype, state, flags, off, op, size, data, part, out, ws, to_f64, out_n)


def run_case(args, case, seed):
    """Runs one case. Returns (ok, line)."""
    p, c = launch(args, case, seed)
    if p is None:
        return None, c
    return judge(args, case, c)


def judge(args, case, c):
    """A launched case's result (and workspace) against the CPU path's bits
    or the exact digits. Returns (ok, line)."""
    dtype, state, flags, off, op, size, data, part, out, ws, to_f64, out_n = c
    with open(out, "rb") as fh:
        got_bytes = fh.read()
    with open(ws, "rb") as fh:
        state_zero = fh.read()[:STATE_BYTES] == bytes(STATE_BYTES)
    note = "" if state_zero else " (workspace state left nonzero)"
    if state:
        got = list(struct.unpack(f"<{out_n}Q", got_bytes))
        want = [0] + exact_digits(dtype, data[off * size:])
        ok = got == want and state_zero
        top = max([k for k in range(1, out_n) if want[k]] or [1])
        shown = slice(max(1, top - 2), top + 1)  # the exact sum's top digits
        diff = "" if got == want else f" (word {next(i for i in range(out_n) if got[i] != want[i])} differs)"
        return ok, (f"{'ok  ' if ok else 'BAD '}{case}: digits {shown.start - 1}..{top - 1} "
                    f"{got[shown]}, exact {want[shown]}{diff}{note}")
    cmd = [args.cured, "sum", part, "--dtype", dtype, "--device", "cpu", "--json", "--op", op]
    if flags & 1:
        cmd.append("--f64")
    q = subprocess.run(cmd, capture_output=True, text=True)
    if q.returncode != 0:
        return None, f"{case}: cured sum failed: {q.stderr.strip()}"
    want = json.loads(q.stdout)["result"]
    if op != "sum" or dtype == "i32":
        got = struct.unpack("<q" if op != "sum" else "<i", got_bytes)[0]
        ok = got == want
    else:
        got = struct.unpack("<d" if to_f64 else "<f", got_bytes)[0]
        w = float(want)
        if not to_f64:
            w = struct.unpack("<f", struct.pack("<f", w))[0]
        ok = (math.isnan(got) and math.isnan(w)) or (
            got == w and math.copysign(1, got) == math.copysign(1, w))
    status = "ok  " if ok and state_zero else "BAD "
    return ok and state_zero, f"{status}{case}: got {got!r}, cpu {want!r}{note}"


# Windows that move often (exponents rising along the array): each move
# sends what the warp holds to the block's superaccumulator from one lane
# (the warp's sum), so its shared atomics meet few bank conflicts. With all
# 32 lanes adding into the same digits, exact_f32 here made 5518 atomic
# wavefronts, 5165 of them conflicts (on the GPU, compare-and-swap
# retries: docs/results.md, seventeenth round).
CONTENTION = """
exact_f32 f32 grow 50003 2 64
exact_bf16 bf16 grow 50003 2 64
exact_f64 f64 grow 50003 2 64
"""


def check_contention(args, case, seed):
    """Runs a CONTENTION case (its bits checked as any case's) and checks
    the model's counts: at most one shared-atomic bank conflict in eight
    wavefronts. Returns (ok, line)."""
    p, c = launch(args, case, seed)
    if p is None:
        return None, c
    ok, line = judge(args, case, c)
    if not ok:
        return ok, line
    def count(metric):
        hit = [l.split() for l in p.stdout.splitlines() if l.split()[:1] == [metric]]
        return int(hit[0][1]) if hit else None
    wf = count("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum")
    cf = count("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum")
    if wf is None or cf is None:
        return None, f"{case}: the model printed no shared-atomic counts"
    ok = wf > 0 and cf * 8 <= wf
    return ok, (f"{'ok  ' if ok else 'BAD '}{case}: {wf} shared-atomic wavefronts, "
                f"{cf} bank conflicts (at most one in eight{'' if wf else '; none sent'})")


def check_cluster_path(args):
    """The entries' PTX is the library's, its thread-block cluster path
    included, and the model can run every exact-sum kernel in it (the
    library's own entries too: `cured model` lists them without a "cannot
    run in the model" mark). Returns None, or what is wrong."""
    with open(args.ptx) as fh:
        text = fh.read()
    for word in ("barrier.cluster.arrive.relaxed;", "barrier.cluster.arrive;",
                 "barrier.cluster.wait;", "mapa.u64", "%cluster_ctarank", "%cluster_nctarank"):
        if word not in text:
            return f"the entries' PTX has no '{word}': not the library's cluster path"
    p = subprocess.run([args.cured, "model", "--ptx", args.ptx, "--entry", "exact_sum_kernel"],
                       capture_output=True, text=True)
    if "names 8 kernel entries" not in p.stderr or "cannot run in the model" in p.stderr:
        return f"cured model's list of the exact-sum kernels: {p.stderr.strip()[-600:]}"
    return None


def main():
    args = model_cli.parse(__doc__)
    wrong = check_cluster_path(args)
    print(f"{'BAD ' if wrong else 'ok  '}the cluster path runs in the model{': ' + wrong if wrong else ''}",
          flush=True)
    bad = 1 if wrong else 0
    for table, check in ((CASES, run_case), (CONTENTION, check_contention)):
        for seed, case in enumerate(c for c in table.strip().splitlines() if c.strip()):
            ok, line = check(args, case, seed + 1)
            print(line, flush=True)
            if ok is None:
                return 2
            bad += not ok
    print(f"test_model_reduce: {bad} mismatches")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
