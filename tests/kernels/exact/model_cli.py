"""model_cli.py - the command line the model tests of this folder share.

    args = model_cli.parse(__doc__)

Parses --cured (the cured binary), --ptx (the entries' PTX) and --dir (a
directory of the test's own, created if missing) and returns them.
"""
import argparse
import os


def parse(doc):
    """The test's arguments; its docstring's first line is the help text."""
    ap = argparse.ArgumentParser(description=doc.split("\n")[0])
    ap.add_argument("--cured", required=True, help="the cured binary")
    ap.add_argument("--ptx", required=True, help="the entries' PTX")
    ap.add_argument("--dir", required=True, help="a directory for the test's files")
    args = ap.parse_args()
    os.makedirs(args.dir, exist_ok=True)
    return args
