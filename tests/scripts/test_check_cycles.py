#!/usr/bin/env python3
"""test_check_cycles.py - scripts/check_cycles.py on planted fixtures.

    test_check_cycles.py [--cc CC] [--nm NM] [-v]     (ctest: check_cycles_fixtures)

Each fixture under fixtures/ is a tiny project (src/, include/, tests/). The
test compiles its .c files with CC into a temporary build directory laid out
as a build lays them out, then runs the checker on it:

  call_cycle     a.c -> b.c -> c.c -> a.c through calls and one data use,
                 d.c calling in from outside; objects in CMake's
                 CMakeFiles/<target>.dir layout, no compile_commands.json;
                 tests/test_c.c (a mock of c_close) must not count
  acyclic        layers main -> api -> parts/sum; a weak default overridden
                 by a strong definition; two weak copies (no edge); a
                 parts/conf.h found before include/conf.h; a commented-out
                 include; objects mapped through compile_commands.json
  include_cycle  include/a.h <-> include/b.h with no call at all; -I given on
                 the command line
and the usage errors (exit 2): no build directory, no objects, an object
that compile_commands.json names but the build lacks or built before its
source changed.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.realpath(__file__))
ROOT = os.path.realpath(os.path.join(HERE, "..", ".."))
CHECKER = os.path.join(ROOT, "scripts", "check_cycles.py")
FIXTURES = os.path.join(HERE, "fixtures")
OPTIONS = argparse.Namespace(cc="cc", nm="nm")


def compile_c(source, obj, include_dirs=()):
    """Compiles one fixture file into obj and returns the command line; the
    test fails when the compiler does."""
    os.makedirs(os.path.dirname(obj), exist_ok=True)
    args = [OPTIONS.cc, "-std=c11", "-O0"] + ["-I" + d for d in include_dirs]
    args += ["-c", source, "-o", obj]
    run = subprocess.run(args, capture_output=True, text=True)
    if run.returncode != 0:
        raise AssertionError(f"{' '.join(args)} failed:\n{run.stderr}")
    return args


def check(*args):
    """(exit status, stdout lines, stderr lines) of the checker."""
    run = subprocess.run([sys.executable, CHECKER, "--nm", OPTIONS.nm, *args],
                         capture_output=True, text=True)
    return run.returncode, run.stdout.splitlines(), run.stderr.splitlines()


def edge_lines(out):
    """The sorted `edge ...` lines of a -v run."""
    return sorted(line for line in out if line.startswith("edge "))


class CheckCycles(unittest.TestCase):
    def setUp(self):
        self.build = tempfile.mkdtemp(prefix="check_cycles.")
        self.addCleanup(shutil.rmtree, self.build, True)

    # ------------------------------------------------------------------------
    # builds of the fixtures

    def build_call_cycle(self):
        """call_cycle's objects in CMake's layout; its root."""
        root = os.path.join(FIXTURES, "call_cycle")
        for name in ("a", "b", "c", "d"):
            compile_c(os.path.join(root, "src", name + ".c"),
                      os.path.join(self.build, "src", "CMakeFiles", "fixture.dir", name + ".c.o"))
        compile_c(os.path.join(root, "tests", "test_c.c"),
                  os.path.join(self.build, "tests", "CMakeFiles", "test_c.dir", "test_c.c.o"),
                  [os.path.join(root, "src")])
        return root

    def build_acyclic(self):
        """acyclic's objects anywhere, with a compile_commands.json (one entry
        as "arguments", the others as "command"); its root."""
        root = os.path.join(FIXTURES, "acyclic")
        include = os.path.join(root, "include")
        entries = []
        for i, rel in enumerate(("src/main.c", "src/api.c", "src/twice.c", "src/parts/sum.c")):
            source = os.path.join(root, rel)
            obj = os.path.join("objects", rel.replace("/", "_") + ".o")
            args = compile_c(source, os.path.join(self.build, obj), [include])
            args[args.index("-o") + 1] = obj
            entry = {"directory": self.build, "file": source}
            if i == 0:
                entry["arguments"] = args
            else:
                entry["command"] = " ".join(args)
            entries.append(entry)
        with open(os.path.join(self.build, "compile_commands.json"), "w") as f:
            json.dump(entries, f)
        return root

    def build_include_cycle(self):
        """include_cycle's one object, named after its source; its root."""
        root = os.path.join(FIXTURES, "include_cycle")
        compile_c(os.path.join(root, "src", "user.c"), os.path.join(self.build, "user.o"),
                  [os.path.join(root, "include")])
        return root

    # ------------------------------------------------------------------------
    # cycles

    def test_call_cycle_is_found_with_its_circle(self):
        root = self.build_call_cycle()
        rc, out, err = check("--root", root, "--build", self.build)
        self.assertEqual(rc, 1, out + err)
        self.assertEqual(out, [
            "cycle of 3 files: src/a.c src/b.c src/c.c",
            "  src/a.c -> src/b.c (calls b_step)",
            "  src/b.c -> src/c.c (calls c_close)",
            "  src/c.c -> src/a.c (calls a_finish)",
            "check_cycles: 7 files (4 objects), 13 edges, 1 cycle",
        ])

    def test_call_cycle_edges_name_calls_and_data(self):
        root = self.build_call_cycle()
        rc, out, _ = check("--root", root, "--build", self.build, "-v")
        self.assertEqual(rc, 1)
        self.assertEqual(edge_lines(out), [
            "edge src/a.c -> src/a.h (includes a.h)",
            "edge src/a.c -> src/b.c (calls b_step)",
            "edge src/a.c -> src/b.h (includes b.h)",
            "edge src/b.c -> src/b.h (includes b.h)",
            "edge src/b.c -> src/c.c (calls c_close)",
            "edge src/b.c -> src/c.h (includes c.h)",
            "edge src/c.c -> src/a.c (calls a_finish)",
            "edge src/c.c -> src/a.h (includes a.h)",
            "edge src/c.c -> src/b.c (uses b_scale)",
            "edge src/c.c -> src/b.h (includes b.h)",
            "edge src/c.c -> src/c.h (includes c.h)",
            "edge src/d.c -> src/a.c (calls a_start)",
            "edge src/d.c -> src/a.h (includes a.h)",
        ])

    def test_include_cycle_is_found_without_any_call(self):
        root = self.build_include_cycle()
        rc, out, err = check("--root", root, "--build", self.build,
                             "-I", os.path.join(root, "include"), "-v")
        self.assertEqual(rc, 1, out + err)
        self.assertIn("edge src/user.c -> include/a.h (includes a.h)", out)
        cycles = [line for line in out if not line.startswith("edge ")]
        self.assertEqual(cycles, [
            "cycle of 2 files: include/a.h include/b.h",
            "  include/a.h -> include/b.h (includes b.h)",
            "  include/b.h -> include/a.h (includes a.h)",
            "check_cycles: 3 files (1 object), 3 edges, 1 cycle",
        ])

    def test_include_dirs_matter(self):
        # without -I, user.c's "a.h" is not in its own directory: no edge
        root = self.build_include_cycle()
        rc, out, _ = check("--root", root, "--build", self.build, "-v")
        self.assertEqual(rc, 1)
        self.assertNotIn("edge src/user.c -> include/a.h (includes a.h)", out)
        self.assertIn('left out: src/user.c includes "a.h" (not a file of the project)', out)

    # ------------------------------------------------------------------------
    # no cycles

    def test_acyclic_passes(self):
        root = self.build_acyclic()
        rc, out, err = check("--root", root, "--build", self.build)
        self.assertEqual(rc, 0, out + err)
        self.assertEqual(out, ["check_cycles: 8 files (4 objects), 10 edges, no cycles"])

    def test_acyclic_edges_follow_weak_strong_and_include_rules(self):
        root = self.build_acyclic()
        rc, out, _ = check("--root", root, "--build", self.build, "-v")
        self.assertEqual(rc, 0)
        self.assertEqual(edge_lines(out), [
            "edge include/api.h -> include/conf.h (includes conf.h)",
            "edge src/api.c -> include/api.h (includes api.h)",
            "edge src/api.c -> src/parts/sum.c (calls parts_sum)",
            "edge src/main.c -> include/api.h (includes api.h)",
            "edge src/main.c -> src/api.c (calls api_sum)",
            "edge src/main.c -> src/parts/conf.h (includes parts/conf.h)",
            "edge src/main.c -> src/twice.c (calls api_hook)",
            "edge src/parts/sum.c -> include/api.h (includes ../../include/api.h)",
            "edge src/parts/sum.c -> src/parts/conf.h (includes conf.h)",
            "edge src/twice.c -> include/api.h (includes api.h)",
        ])

    # ------------------------------------------------------------------------
    # usage errors: exit 2 with one line

    def assert_usage_error(self, args, words):
        rc, out, err = check(*args)
        self.assertEqual(rc, 2, out + err)
        self.assertEqual(out, [])
        self.assertEqual(len(err), 1, err)
        self.assertTrue(err[0].startswith("check_cycles: ") and words in err[0], err)

    def test_missing_build_dir(self):
        root = os.path.join(FIXTURES, "acyclic")
        self.assert_usage_error(["--root", root, "--build", os.path.join(self.build, "nope")],
                                "no build directory")

    def test_build_without_objects(self):
        root = os.path.join(FIXTURES, "acyclic")
        self.assert_usage_error(["--root", root, "--build", self.build], "no object files")

    def test_incomplete_build(self):
        root = self.build_acyclic()
        os.remove(os.path.join(self.build, "objects", "src_twice.c.o"))
        self.assert_usage_error(["--root", root, "--build", self.build], "incomplete")

    def test_out_of_date_build(self):
        root = self.build_acyclic()
        obj = os.path.join(self.build, "objects", "src_api.c.o")
        source_time = os.path.getmtime(os.path.join(root, "src", "api.c"))
        os.utime(obj, (source_time - 60, source_time - 60))
        self.assert_usage_error(["--root", root, "--build", self.build], "out of date")

    def test_root_without_src(self):
        self.assert_usage_error(["--root", self.build, "--build", self.build], "no src/")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="tests of scripts/check_cycles.py")
    parser.add_argument("--cc", default=os.environ.get("CC", "cc"), help="C compiler")
    parser.add_argument("--nm", default="nm", help="nm")
    parser.add_argument("-v", "--verbose", action="store_true")
    OPTIONS = parser.parse_args()
    unittest.main(argv=[sys.argv[0]] + (["-v"] if OPTIONS.verbose else []))
