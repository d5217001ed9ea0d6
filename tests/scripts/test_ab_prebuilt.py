#!/usr/bin/env python3
"""test_ab_prebuilt.py - scripts/gpu-ab.sh and scripts/gpu-ncu-ab.sh on a
pack of prebuilt builds (--prebuilt, the pack scripts/ab-prebuild.sh
makes), with no GPU: the pack's programs are made-up shell scripts that
answer as cured, test_gpu_reduce and Nsight Compute would, with known
times.

    test_ab_prebuilt.py --root PROJECT_SOURCE_DIR

A's cured takes 10 us a call and its kernel 2000 ns, B's 8 us and 1600
ns, so the tables must read A/B 1.250; any other metric (--metrics) is
100 in A and 90 in B, B/A 0.900. Checks that a pack made for this
tree and patch is used (nothing compiled: the runs take seconds), that a
pack for another patch or another tree, or no pack at all, is refused
with exit 1 and a message naming the cause, and that a variant whose
test_gpu_reduce fails is not timed (exit 1). Exits 1 on any mismatch.
"""
import argparse
import os
import subprocess
import sys
import tarfile
import tempfile

# cured: `bench --api ... --csv=FILE` writes one row per mode, the time
# from the folder the script lies in (a: 10 us, b: 8 us); CUB's and the
# read kernel's rows beside it
FAKE_CURED = """#!/bin/sh
case "$0" in */a/build/cured) us=10 ;; *) us=8 ;; esac
for arg; do
  case "$arg" in --csv=*) csv=${arg#--csv=} ;; esac
done
{ echo "job,dtype,mode,log2n,median_us"
  echo "cured,f32,warm,20,$us"
  echo "cub,f32,warm,20,12"
  echo "read,f32,warm,20,4"
} > "$csv"
"""

FAKE_TEST = """#!/bin/sh
exit {status}
"""

# ncu: two launches' values of the metrics it is asked for (--metrics) in
# Nsight Compute's CSV form, by the program it is given (the last
# arguments): the duration 2000 ns in A, 1600 in B; any other metric 100
# in A, 90 in B
FAKE_NCU = """#!/bin/sh
case "$*" in */a/build/*) ns=2,000 n=100 ;; *) ns=1,600 n=90 ;; esac
while [ $# -gt 0 ]; do
  [ "$1" = --metrics ] && metrics=$2
  shift
done
echo '==PROF== Connected to process'
echo '"ID","Kernel Name","Metric Name","Metric Unit","Metric Value"'
for id in 0 1; do
  for m in $(echo "$metrics" | tr , ' '); do
    case "$m" in
      gpu__time_duration.sum) echo "\\"$id\\",\\"exact_sum\\",\\"$m\\",\\"nsecond\\",\\"$ns\\"" ;;
      *) echo "\\"$id\\",\\"exact_sum\\",\\"$m\\",\\"inst\\",\\"$n\\"" ;;
    esac
  done
done
"""


def write_exec(path, text):
    """A file with TEXT, executable."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, 0o755)


def manifest(root, patch):
    """ab-variants.sh's manifest of ROOT's tree with one patch."""
    cmd = f'. scripts/ab-variants.sh; flags=""; patches=("{patch}"); ab_manifest'
    return subprocess.run(["bash", "-c", cmd], cwd=root, check=True,
                          capture_output=True, text=True).stdout


def make_pack(tmp, name, text, b_test_status=0):
    """A pack in TMP/NAME with builds a and b and the manifest TEXT."""
    stage = os.path.join(tmp, name + "-stage")
    for v, status in (("a", 0), ("b", b_test_status)):
        write_exec(os.path.join(stage, v, "build", "cured"), FAKE_CURED)
        write_exec(os.path.join(stage, v, "build", "tests", "gpu", "test_gpu_reduce"),
                   FAKE_TEST.format(status=status))
    pack = os.path.join(tmp, name)
    os.makedirs(pack)
    with tarfile.open(os.path.join(pack, "builds.tar.gz"), "w:gz") as t:
        for v in ("a", "b"):
            t.add(os.path.join(stage, v), arcname=v)
    with open(os.path.join(pack, "manifest"), "w") as f:
        f.write("# made by test_ab_prebuilt.py\n" + text)
    return pack


def run(root, tmp, script, *args):
    """(exit status, stdout + stderr) of scripts/SCRIPT, its logs in TMP."""
    env = dict(os.environ, OUT=os.path.join(tmp, "out"), AB_DIR=os.path.join(tmp, "ab"),
               PATH=os.path.join(tmp, "bin") + os.pathsep + os.environ["PATH"])
    p = subprocess.run([os.path.join(root, "scripts", script), *args], env=env,
                       capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout + p.stderr


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", required=True)
    root = ap.parse_args().root
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        patch, other = os.path.join(tmp, "b.patch"), os.path.join(tmp, "c.patch")
        with open(patch, "w") as f:
            f.write("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-1\n+2\n")
        with open(other, "w") as f:
            f.write("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-1\n+3\n")
        write_exec(os.path.join(tmp, "bin", "ncu"), FAKE_NCU)
        good = manifest(root, patch)
        ok = make_pack(tmp, "ok", good)
        stale = make_pack(tmp, "stale", good.replace("tree ", "tree 0", 1))
        failing = make_pack(tmp, "failing", good, b_test_status=1)
        cases = [
            ("gpu-ab.sh", ("--prebuilt", ok, "--patch", patch, "--check"), 0,
             ["gpu-ab: checks: a PASS b PASS", "f32 warm 20 10.00 8.00 1.250"]),
            ("gpu-ncu-ab.sh", ("--prebuilt", ok, "--patch", patch, "--check", "--", "f32:20"), 0,
             ["gpu-ncu-ab: checks: a PASS b PASS",
              "f32 2^20 2000 2000 2000 1600 1600 1600 1.250"]),
            ("gpu-ncu-ab.sh", ("--prebuilt", ok, "--patch", patch, "--metrics",
                               "sm__inst_executed_pipe_fp64.sum,sm__inst_executed.sum",
                               "--", "f32:20"), 0,
             ["f32 2^20 2000 2000 2000 1600 1600 1600 1.250",
              "f32 2^20 sm__inst_executed_pipe_fp64.sum 100 90 0.900",
              "f32 2^20 sm__inst_executed.sum 100 90 0.900"]),
            ("gpu-ncu-ab.sh", ("--prebuilt", ok, "--patch", other, "--", "f32:20"), 1,
             ["built from another tree or other variants", "< patch", "> patch"]),
            ("gpu-ab.sh", ("--prebuilt", stale, "--patch", patch), 1,
             ["built from another tree or other variants", "< tree 0"]),
            ("gpu-ab.sh", ("--prebuilt", os.path.join(tmp, "none"), "--patch", patch), 1,
             ["no pack in"]),
            ("gpu-ab.sh", ("--prebuilt", failing, "--patch", patch, "--check"), 1,
             ["b FAIL", "b fails test_gpu_reduce"]),
        ]
        for script, args, want_rc, wants in cases:
            rc, text = run(root, tmp, script, *args)
            words = " ".join(text.split())  # the tables' columns, one space apart
            missing = [w for w in wants if " ".join(w.split()) not in words]
            if rc != want_rc or missing:
                failures += 1
                print(f"FAIL {script} {' '.join(args)}: exit {rc} (want {want_rc}), "
                      f"missing {missing}\n{text}")
            else:
                print(f"ok   {script} {' '.join(a.replace(tmp + '/', '') for a in args)}")
    print("test_ab_prebuilt:", "FAIL" if failures else "PASS")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
