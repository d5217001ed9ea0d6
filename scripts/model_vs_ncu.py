#!/usr/bin/env python3
"""model_vs_ncu.py - compares the model's counters with Nsight Compute's.

    model_vs_ncu.py grid FILE.ncu.csv     prints the profiled launch's grid
    model_vs_ncu.py stores FILE.ncu.csv   prints "wavefronts/conflicts" of its
                                          shared stores
    model_vs_ncu.py table DIR             the comparison table for every
                                          <kernel>.n<N>.b<B>.{ncu.csv,model.json}
                                          pair in DIR; exit 1 on a difference

Used by scripts/gpu-model-check.sh on the GPU machine.
"""
import csv
import glob
import io
import json
import os
import sys

# (short name, ncu metric, model counter) compared for equality.
COMPARED = [
    ("sh.ld inst", "smsp__inst_executed_op_shared_ld.sum"),
    ("sh.st inst", "smsp__inst_executed_op_shared_st.sum"),
    ("ld wavefr", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"),
    ("st wavefr", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"),
    ("ld confl", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"),
    ("st confl", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"),
    ("g.ld sect", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"),
    ("g.st sect", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"),
]


def read_ncu(path):
    """The first profiled launch's metrics as {name: string value}."""
    with open(path, errors="replace") as f:
        lines = [l for l in f if l.startswith('"')]
    if len(lines) < 2:
        return None
    rows = list(csv.reader(io.StringIO("".join(lines))))
    header, data = rows[0], rows[1:]
    # --page raw: a units row follows the header
    for row in data:
        if row and row[0] not in ("", "ID") and not row[0].startswith("("):
            try:
                int(row[0])
            except ValueError:
                continue
            return dict(zip(header, row))
    return None


def number(text):
    text = (text or "").replace(",", "").strip()
    try:
        return float(text)
    except ValueError:
        return None


def grid_of(path):
    m = read_ncu(path)
    if not m:
        return ""
    g = m.get("launch__grid_size", "")
    b = number(m.get("launch__block_size"))
    g = number(g)
    return "" if g is None or b is None else str(int(g))


def table(directory):
    pairs = sorted(glob.glob(os.path.join(directory, "*.ncu.csv")))
    differ = 0
    compared = 0
    print("%-28s %-10s %10s %10s  %s" % ("kernel / shape", "counter", "model", "ncu", ""))
    for path in pairs:
        tag = os.path.basename(path)[: -len(".ncu.csv")]
        ncu = read_ncu(path)
        try:
            with open(os.path.join(directory, tag + ".model.json")) as f:
                model = json.load(f)["counters"]["totals"]
        except (OSError, ValueError, KeyError):
            model = None
        if ncu is None or model is None:
            print("%-28s %s" % (tag, "no ncu result" if ncu is None else "no model result"))
            differ += 1
            continue
        for short, metric in COMPARED:
            a = model.get(metric)
            b = number(ncu.get(metric))
            if b is None:
                print("%-28s %-10s %10s %10s  ncu lacks the metric" % (tag, short, a, "-"))
                continue
            compared += 1
            same = a is not None and float(a) == b
            if not same:
                differ += 1
            print("%-28s %-10s %10s %10d  %s" % (tag, short, a, b, "equal" if same else "DIFFERENT"))
    print("\nmodel vs ncu: %d values compared, %d different" % (compared, differ))
    return 1 if differ else 0


def main(argv):
    if len(argv) == 3 and argv[1] == "grid":
        print(grid_of(argv[2]))
        return 0
    if len(argv) == 3 and argv[1] == "stores":
        m = read_ncu(argv[2]) or {}
        wf = number(m.get("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"))
        cf = number(m.get("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"))
        print("%s/%s" % ("-" if wf is None else int(wf), "-" if cf is None else int(cf)))
        return 0
    if len(argv) == 3 and argv[1] == "table":
        return table(argv[2])
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
