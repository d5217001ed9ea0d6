#!/usr/bin/env python3
"""test_model_vs_ncu.py - scripts/model_vs_ncu.py's split and summary, the
way scripts/gpu-fidelity.sh uses them, down to `cured model --compare-ncu`
reading what split wrote.

    test_model_vs_ncu.py --cured build/cured --root .

Two runs of one case, found by their logs (the fidelity set's global_atomics, the CSV
tests/cli/model/fixtures/ncu/global_atomics.raw.csv made from the H200's
values) and its per-opcode values (EXIT 8, SHFL absent: 0) go through
split: the case's CSV must hold both runs as one launch (ID 0) with the
opcode columns, ncu.csv every value once per run; --compare-ncu on it must
find every measured metric equal, BAR/SHFL/VOTE among them (0: ncu lists
only the opcodes that ran); summary must count them and exit 0, and exit 1
once a value is made to differ.
"""
import argparse
import csv
import json
import os
import shutil
import subprocess
import sys
import tempfile


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cured", required=True)
    ap.add_argument("--root", required=True)
    a = ap.parse_args()
    script = os.path.join(a.root, "scripts", "model_vs_ncu.py")
    fid = os.path.join(a.root, "tests", "model", "fidelity")
    raw = os.path.join(a.root, "tests", "cli", "model", "fixtures", "ncu",
                       "global_atomics.raw.csv")
    tmp = tempfile.mkdtemp()
    try:
        cases = os.path.join(tmp, "cases.lines")
        with open(cases, "w") as f:
            f.write("fid.global_atomics --ptx K --cubin C --entry global_atomics\n")
        opc = os.path.join(tmp, "run.opcodes.csv")
        with open(opc, "w") as f:
            f.write("index,kernel,metric,value\n"
                    "0,global_atomics,sass__inst_executed_per_opcode [EXIT],8\n"
                    "0,global_atomics,sass__inst_executed_per_opcode [REDG],24\n")
        log = os.path.join(tmp, "run.log")
        with open(log, "w") as f:      # launch_ptx's case line, then ncu's
            f.write("== fid.global_atomics\n==PROF== Profiling \"global_atomics\" - 0: "
                    "0%....50%....100% - 9 passes\n")
        outdir = os.path.join(tmp, "cases")
        r = subprocess.run([sys.executable, script, "split", cases, raw, raw, "--opcodes",
                            opc, opc, "--logs", log, log, outdir], capture_output=True,
                           text=True)
        assert r.returncode == 0, r.stdout + r.stderr
        assert "split: 1 cases, 2 runs" in r.stdout, r.stdout
        assert "taken in order" not in r.stdout, r.stdout
        with open(os.path.join(outdir, "fid.global_atomics.csv")) as f:
            rows = list(csv.reader(f))
        assert len(rows) == 4, rows                       # header, units, 2 runs
        assert rows[2][0] == rows[3][0] == "0"
        assert "sass__inst_executed_per_opcode [EXIT]" in rows[0]
        with open(os.path.join(outdir, "ncu.csv")) as f:
            long_rows = list(csv.DictReader(f))
        red = [x for x in long_rows
               if x["metric"] == "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum"]
        assert [x["run"] for x in red] == ["run1", "run2"] and red[0]["value"] == "544", red

        model = os.path.join(tmp, "model")
        os.makedirs(model)
        cmd = [a.cured, "model", "--ptx", os.path.join(fid, "kernels.ptx"), "--sass",
               os.path.join(fid, "kernels.sass"), "--entry", "global_atomics", "--grid", "4",
               "--block", "64", "--arg", "in=s32[256]:random", "--arg", "words=s32[74]:zeros",
               "--arg", "fsum=f32[1]:zeros", "--compare-ncu",
               os.path.join(outdir, "fid.global_atomics.csv"), "--json"]
        r = subprocess.run(cmd, capture_output=True, text=True)
        assert r.returncode == 0, r.stdout[-2000:] + r.stderr
        doc = json.loads(r.stdout)
        verdicts = {x["metric"]: (x["verdict"], x["ncu_runs"])
                    for x in doc["ncu_compare"]["comparison"]["rows"]}
        assert verdicts["l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum"] == ("equal", 2)
        assert verdicts["sass__inst_executed_per_opcode [BAR]"] == ("equal", 2), verdicts
        assert doc["ncu_compare"]["comparison"]["different"] == 0
        with open(os.path.join(model, "fid.global_atomics.json"), "w") as f:
            f.write(r.stdout)
        r = subprocess.run([sys.executable, script, "summary", model], capture_output=True,
                           text=True)
        assert r.returncode == 0, r.stdout
        assert "global requests/sectors" in r.stdout and "all" in r.stdout, r.stdout

        doc["ncu_compare"]["comparison"]["rows"][5]["verdict"] = "DIFFERENT"
        with open(os.path.join(model, "fid.global_atomics.json"), "w") as f:
            json.dump(doc, f)
        r = subprocess.run([sys.executable, script, "summary", model], capture_output=True,
                           text=True)
        assert r.returncode == 1 and "different: fid.global_atomics:" in r.stdout, r.stdout
    finally:
        shutil.rmtree(tmp)
    print("test_model_vs_ncu: split, --compare-ncu and summary agree")
    return 0


if __name__ == "__main__":
    sys.exit(main())
