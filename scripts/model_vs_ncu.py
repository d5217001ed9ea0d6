#!/usr/bin/env python3
"""model_vs_ncu.py - Nsight Compute's truth for the model, and the model
against it (used by scripts/gpu-fidelity.sh on the GPU machine).

    model_vs_ncu.py same-sass RAN MODEL
        checks that the SASS the GPU ran is the SASS the model counted by:
        per kernel, every instruction's guard and mnemonic (labels aside);
        exit 1 on a difference
    model_vs_ncu.py opcodes REPORT.ncu-rep
        prints, as CSV rows `index,kernel,metric,value`, every instance of
        the report's opcode-instanced metrics (sass__inst_executed_per_opcode
        ...: one row per opcode, metric "NAME [OPCODE]"), read with Nsight
        Compute's Python report interface (ncu_report, on PYTHONPATH)
    model_vs_ncu.py split CASES RUN1.csv [RUN2.csv ...] [--opcodes OPC...]
                          [--logs LOG...] OUTDIR
        CASES is the file launch_ptx --cases ran (`NAME OPTIONS...`); RUNk.csv
        what `ncu --import --csv --page raw` printed for run k, OPC what
        `opcodes` printed for it, LOG what the run printed (launch_ptx's
        `== NAME` before each case, ncu's `==PROF== Profiling ... - ID`):
        which kernel is which case (without logs, kernel i is line i).
        Writes OUTDIR/NAME.csv per case (ncu's raw layout: a header, a units
        row, one row per run, every row ID 0, the per-opcode values as
        columns "NAME [OPCODE]": what `cured model --compare-ncu` reads) and
        OUTDIR/ncu.csv (`case,run,metric,value` for every case, run and
        metric: docs/data/fidelity-*/ncu.csv's layout, which
        tests/model/fidelity/test_fidelity.c reads)
    model_vs_ncu.py summary DIR
        reads DIR/*.json (`cured model ... --compare-ncu CSV --json`, one per
        case) and prints per metric class how many values are equal, known
        and different, then every different one; exit 1 when one differs
"""
import csv
import glob
import io
import json
import os
import re
import sys

INFO = ["ID", "Process ID", "Process Name", "Host Name", "Kernel Name", "Context",
        "Stream", "Block Size", "Grid Size", "Device", "CC"]


# ------------------------------------------------------------------ same-sass

def sass_functions(path):
    """{kernel: [guard and mnemonic of each instruction]} from cuobjdump or
    nvdisasm text; a function compiled into a kernel's section
    ("$KERNEL$FUNC") counts as part of that kernel; NOPs are left out."""
    funcs, cur = {}, None
    with open(path, errors="replace") as f:
        for line in f:
            m = (re.match(r"\s*Function : (\S+)", line) or
                 re.match(r"\s*\.type\s+([^,\s]+),@function", line))
            if m:
                name = m.group(1)
                if name.startswith("$") and name.count("$") >= 2:
                    name = name.split("$")[1]
                cur = funcs.setdefault(name, [])
                continue
            m = re.match(r"\s*/\*[0-9a-fA-F]+\*/\s*(.*?)\s*;", line)
            if m and cur is not None:
                words = m.group(1).split()
                guard = words[0] if words and words[0].startswith("@") else ""
                op = words[1] if guard and len(words) > 1 else (words[0] if words else "")
                if op != "NOP":
                    cur.append((guard + " " + op).strip())
    return funcs


def same_sass(ran_path, model_path):
    ran, model = sass_functions(ran_path), sass_functions(model_path)
    common = sorted(set(ran) & set(model))
    differ = [k for k in common if ran[k] != model[k]]
    for k in differ:
        a, b = ran[k], model[k]
        i = next((i for i in range(min(len(a), len(b))) if a[i] != b[i]),
                 min(len(a), len(b)))
        print("%s: differs at instruction %d: ran %s, model %s" %
              (k, i, a[i] if i < len(a) else "(end)", b[i] if i < len(b) else "(end)"))
    print("same-sass: %d kernels in both, %d the same, %d different "
          "(%d only in the run, %d only in the model's)" %
          (len(common), len(common) - len(differ), len(differ),
           len(set(ran) - set(model)), len(set(model) - set(ran))))
    return 1 if differ or not common else 0


# -------------------------------------------------------------------- opcodes

def instance_value(metric, i):
    for get in ("value", "as_uint64", "as_double"):
        f = getattr(metric, get, None)
        if f is not None:
            try:
                return f(i)
            except TypeError:
                continue
    return None


def instance_name(ids, i):
    for get in ("value", "as_string"):
        f = getattr(ids, get, None)
        if f is not None:
            try:
                return str(f(i))
            except TypeError:
                continue
    return None


def opcodes(report_path):
    import ncu_report  # Nsight Compute's extras/python, on PYTHONPATH
    ctx = ncu_report.load_report(report_path)
    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(["index", "kernel", "metric", "value"])
    index = 0
    for r in range(ctx.num_ranges()):
        rng = ctx.range_by_idx(r)
        for a in range(rng.num_actions()):
            act = rng.action_by_idx(a)
            for name in act.metric_names():
                if "opcode" not in name:
                    continue
                m = act.metric_by_name(name)
                n = m.num_instances() if m is not None else 0
                if n == 0:
                    continue
                ids = m.correlation_ids()
                for i in range(n):
                    op, v = instance_name(ids, i), instance_value(m, i)
                    if op is not None and v is not None:
                        out.writerow([index, act.name(), "%s [%s]" % (name, op), v])
            index += 1
    return 0


# ---------------------------------------------------------------------- split

def read_raw(path):
    """The kernel rows of `ncu --csv --page raw`: (header, units, rows)."""
    with open(path, errors="replace") as f:
        lines = [l for l in f if l.startswith('"')]
    rows = list(csv.reader(io.StringIO("".join(lines))))
    if not rows:
        return [], [], []
    header = rows[0]
    units = rows[1] if len(rows) > 1 and rows[1] and not rows[1][0].isdigit() else []
    data = [r for r in rows[1:] if r and r[0].isdigit()]
    return header, units, data


def read_opcodes(path):
    """{kernel index: {metric [OPCODE]: value}}."""
    out = {}
    if not path or not os.path.exists(path):
        return out
    with open(path) as f:
        for r in csv.DictReader(f):
            out.setdefault(int(r["index"]), {})[r["metric"]] = r["value"]
    return out


def read_cases(path):
    names = []
    with open(path) as f:
        for line in f:
            words = line.split()
            if words and not words[0].startswith("#"):
                names.append(words[0])
    return names


def kernels_of_cases(log_path, cases):
    """{case index: ncu kernel ID} from a run's log, where launch_ptx printed
    `== NAME` before each case and ncu `==PROF== Profiling "K" - ID: ...`
    for each kernel it profiled; a case that failed has none."""
    index = {name: i for i, name in enumerate(cases)}
    out, current = {}, None
    with open(log_path, errors="replace") as f:
        for line in f:
            m = re.match(r"== (\S+)\s*$", line)
            if m:
                current = index.get(m.group(1))
                continue
            m = re.search(r'==PROF== Profiling ".*" - (\d+):', line)
            if m and current is not None and current not in out:
                out[current] = int(m.group(1))
    return out


def split(argv):
    groups, key = {"runs": []}, "runs"
    for a in argv[1:-1]:
        if a in ("--opcodes", "--logs"):
            key = a[2:]
            groups[key] = []
        else:
            groups[key].append(a)
    runs, opc, logs, outdir = (groups["runs"], groups.get("opcodes", []),
                               groups.get("logs", []), argv[-1])
    cases = read_cases(argv[0])
    os.makedirs(outdir, exist_ok=True)
    per_run = [read_raw(p) for p in runs]
    per_opc = [read_opcodes(opc[i]) if i < len(opc) else {} for i in range(len(runs))]
    # which kernel of each run is which case: by the logs, else by order
    ids = []
    for i in range(len(runs)):
        m = kernels_of_cases(logs[i], cases) if i < len(logs) else {}
        if not m:
            if i < len(logs):
                print("split: run %d: no case in its log: kernels taken in order" % (i + 1))
            m = {c: c for c in range(len(cases))}
        ids.append(m)
    long_rows = []
    problems = 0
    for ci, case in enumerate(cases):
        header, units, rows = None, None, []
        extra = sorted({m for r, o in enumerate(per_opc) if ci in ids[r]
                        for m in o.get(ids[r][ci], {})})
        for run, (h, u, data) in enumerate(per_run):
            k = ids[run].get(ci)
            byid = {int(r[0]): r for r in data}
            if k is None or k not in byid:
                print("split: %s: run %d profiled no kernel of it" % (case, run + 1))
                problems += 1
                continue
            row = dict(zip(h, byid[k]))
            if header is None:
                header = [c for c in h]
                units = dict(zip(h, u)) if u else {}
            opv = per_opc[run].get(k, {})
            rows.append((run + 1, row, opv))
            for m in h:
                if m not in INFO:
                    long_rows.append((case, "run%d" % (run + 1), m, row.get(m, "")))
            for m, v in opv.items():
                long_rows.append((case, "run%d" % (run + 1), m, v))
        if header is None:
            continue
        cols = header + extra
        with open(os.path.join(outdir, case + ".csv"), "w") as f:
            w = csv.writer(f, quoting=csv.QUOTE_ALL, lineterminator="\n")
            w.writerow(cols)
            w.writerow([units.get(c, "") if c not in extra else "inst" for c in cols])
            for _, row, opv in rows:
                vals = [row.get(c, "") for c in header] + [opv.get(c, "0") for c in extra]
                vals[0] = "0"           # every run is the same launch
                w.writerow(vals)
    with open(os.path.join(outdir, "ncu.csv"), "w") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["case", "run", "metric", "value"])
        for r in sorted(long_rows):
            w.writerow(r)
    print("split: %d cases, %d runs, %d values%s" %
          (len(cases), len(runs), len(long_rows),
           ", %d problems" % problems if problems else ""))
    return 1 if problems else 0


# -------------------------------------------------------------------- summary

CLASSES = [
    ("shared instructions", r"smsp__inst_executed_op_shared"),
    ("shared wavefronts/conflicts", r"l1tex__data_(pipe|bank)"),
    ("global/local instructions", r"smsp__inst_executed_op_(global|generic|local)"),
    ("global requests/sectors", r"l1tex__t_(requests|sectors)"),
    ("branch targets", r"smsp__sass_branch_targets"),
    ("BAR/SHFL/VOTE", r"sass__inst_executed_per_opcode"),
]


def class_of(metric):
    for name, pattern in CLASSES:
        if re.match(pattern, metric):
            return name
    return "other"


def summary(directory):
    counts = {}
    different, missing = [], []
    for path in sorted(glob.glob(os.path.join(directory, "*.json"))):
        case = os.path.basename(path)[:-5]
        try:
            with open(path) as f:
                doc = json.load(f)
            rows = doc["ncu_compare"]["comparison"]["rows"]
        except (OSError, ValueError, KeyError, TypeError):
            missing.append(case)
            continue
        for r in rows:
            v = r["verdict"]
            if v in ("model's own", "not measured"):
                continue
            c = counts.setdefault(class_of(r["metric"]), {"equal": 0, "known": 0,
                                                          "DIFFERENT": 0})
            c[v] += 1
            if v == "DIFFERENT":
                different.append("%s: %s: model %s, ncu %s" %
                                 (case, r["metric"], r["model"], r["ncu"]))
    print("%-30s %7s %7s %9s" % ("metric class", "equal", "known", "different"))
    total = {"equal": 0, "known": 0, "DIFFERENT": 0}
    for name, _ in CLASSES + [("other", "")]:
        if name in counts:
            c = counts[name]
            print("%-30s %7d %7d %9d" % (name, c["equal"], c["known"], c["DIFFERENT"]))
            for k in total:
                total[k] += c[k]
    print("%-30s %7d %7d %9d" % ("all", total["equal"], total["known"], total["DIFFERENT"]))
    for d in different:
        print("different: " + d)
    for m in missing:
        print("no comparison: " + m)
    return 1 if different or missing else 0


def main(argv):
    if len(argv) == 4 and argv[1] == "same-sass":
        return same_sass(argv[2], argv[3])
    if len(argv) == 3 and argv[1] == "opcodes":
        return opcodes(argv[2])
    if len(argv) >= 5 and argv[1] == "split":
        return split(argv[2:])
    if len(argv) == 3 and argv[1] == "summary":
        return summary(argv[2])
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
