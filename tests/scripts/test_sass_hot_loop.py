#!/usr/bin/env python3
"""test_sass_hot_loop.py - scripts/sass_hot_loop.py on a made-up kernel
(fixtures/hot_loop.sass) whose counts are known by hand.

    test_sass_hot_loop.py --root PROJECT_SOURCE_DIR

The fixture's loop runs 0x20 .. 0xb0 with a branch around one block (an
FFMA at 0x80); a shuffle follows it. Checks the common trip (the shortest
cycle that meets --must: 9 instructions without the FFMA, 10 with it), the
pipes' estimated cycles (a conversion on xu 8, a DADD 2, each integer
instruction 2, an FFMA 1, an IMAD 2), the --until and --after spans, and
that a missing kernel or an --until that nothing matches exits 1 with a
message, as does a missing file; --after without --until, a --must that
is not REGEX:COUNT and a regular expression that does not compile exit 2
(usage errors). Exits 1 on any mismatch.
"""
import argparse
import os
import subprocess
import sys


def run(script, sass, *args):
    """(exit status, stdout + stderr) of the script on the SASS file."""
    p = subprocess.run([sys.executable, script, sass, "--elems", "4", *args],
                       capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", required=True)
    args = ap.parse_args()
    script = os.path.join(args.root, "scripts", "sass_hot_loop.py")
    fixture = os.path.join(args.root, "tests", "scripts", "fixtures", "hot_loop.sass")
    cases = [
        (("--kernel", "kern", "--must", "F2F:1", "--pipes"), 0,
         ["common trip: 9 instructions, 4 elements: 2.25 per element",
          "blocks of the loop off that trip (start: size): 0x0080: 1",
          "issue 9, xu 8, fp64 2, fmaheavy 0, fma 0, alu 8"]),
        (("--kernel", "kern", "--must", "FFMA:1", "--pipes"), 0,
         ["common trip: 10 instructions", "issue 10, xu 8, fp64 2, "
          "fmaheavy 0, fma 1, alu 8"]),
        (("--kernel", "kern", "--until", "SHFL.BFLY", "--pipes"), 0,
         ["before 'SHFL.BFLY': 12 instructions",
          "issue 12, xu 8, fp64 2, fmaheavy 2, fma 1, alu 8"]),
        (("--kernel", "kern", "--until", "SHFL.BFLY", "--after", "LDG.E.128"), 0,
         ["after the last 'LDG.E.128' before 'SHFL.BFLY': 9 instructions"]),
        (("--kernel", "nosuch"), 1, ["no function matching 'nosuch'"]),
        (("--kernel", "kern", "--until", "BAR.SYNC"), 1,
         ["nothing matches 'BAR.SYNC'"]),
        (("--kernel", "kern", "--after", "LDG"), 2, ["--after needs --until"]),
        (("--kernel", "kern", "--must", "F2F"), 2, ["'F2F' is not REGEX:COUNT"]),
        (("--kernel", "kern", "--until", "("), 2, ["'(' is not a regular expression"]),
    ]
    nosuch = os.path.join(os.path.dirname(fixture), "nosuch.sass")
    bad = 0
    for argv, status, wants in cases:
        got_status, out = run(script, fixture, *argv)
        missing = [w for w in wants if w not in out]
        ok = got_status == status and not missing
        bad += not ok
        print(f"{'ok ' if ok else 'BAD'} {' '.join(argv)}: exit {got_status}"
              + (f", missing {missing!r} in:\n{out}" if missing else ""))
    got_status, out = run(script, nosuch, "--kernel", "kern")
    ok = got_status == 1 and f"cannot read '{nosuch}'" in out
    bad += not ok
    print(f"{'ok ' if ok else 'BAD'} a missing file: exit {got_status}" +
          ("" if ok else f", said:\n{out}"))
    print(f"test_sass_hot_loop: {bad} mismatches")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
