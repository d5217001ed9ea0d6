#!/usr/bin/env python3
"""sass_hot_loop.py - instructions per element in a kernel's hot loop (or a
span of its straight code), read from its SASS.

    scripts/sass_hot_loop.py FILE --kernel SUBSTRING --elems N
                             [--must REGEX:COUNT ...]
                             [--until REGEX [--after REGEX]] [--pipes] [--show]

FILE is a cubin (disassembled with nvdisasm, found on PATH, in
/usr/local/cuda/bin or in the nvidia-cuda-nvdisasm wheel) or the text
nvdisasm -c wrote. The function whose name contains SUBSTRING is cut into
basic blocks; the hot loop is the first natural loop (of a back edge, by
its header's address) that issues 16-byte global loads (LDG.E.128): the
load layer's main loop.
One trip of the common case is taken to be the shortest cycle through the
loop's header that executes at least COUNT instructions matching each
--must REGEX (e.g. 'F2F.F64:16' for the f32 fast path: sixteen
conversions), so rare branches (the slow path, the every-N-trips flush)
are left out. Prints that cycle's instruction count, the count per element
(N elements per thread per trip), its mix by opcode, and the loop's blocks
that the cycle skips, with their sizes (the flush's cost is its size over
its period). With --until, no loop: the instructions from the function's
start up to the first that matches REGEX (e.g. SHFL.BFLY: a single tile's
loads and elements before its first shuffle), counted as laid out (every
branch's code, taken or not); with --after, only those after the last one
before it that matches that REGEX (e.g. LDG.E.128: the elements' work once
the loads are issued, where the address arithmetic before them overlaps
the loads' latency; code laid out after them that does not wait for them,
such as another load's address, still counts). With --pipes, also the
cycles those instructions hold each pipe of one SM sub-partition a warp,
estimated from NVIDIA's throughput table for compute capability 9.0
(results a clock an SM, over four sub-partitions; PIPES below), beside
the issue slots (one an instruction): where enough warps hide the
latencies, the largest bounds the code (only there: four changes that
lowered it in cured's kernels ran no faster on the H200, whose single
tiles wait on latencies and main loops on memory; docs/results.md,
"twenty-fourth round"). Exits 1 when the file cannot be
read or the kernel, the loop, such a cycle or the --until instruction is
missing, 2 on bad usage.
"""
import argparse
import collections
import glob
import heapq
import os
import re
import shutil
import subprocess
import sys

INSTR = re.compile(r"^\s*/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;")
LABEL = re.compile(r"^(\.L_x_\d+):")
TARGET = re.compile(r"`\((\.L_x_\d+)\)")
FUNC = re.compile(r"^\.text\.(\S+):")

# Cycles a warp instruction holds its pipe on one sub-partition: 32 lanes
# over (results a clock an SM / 4), by NVIDIA's throughput table for
# compute capability 9.0: conversions to and from 64-bit types (and the
# others) 16, DADD/DFMA 64, 32-bit integer add, logic, shift, compare and
# min/max 64, IMAD 64, FFMA/FADD/FMUL 128. The names are Nsight Compute's
# (sm__inst_executed_pipe_NAME); which opcode takes which pipe is this
# table's assumption, checked on the H200 for the conversions (xu: the
# f16 single tile's 34 a warp, 18 with the twenty-third round's built
# patch, are its xu counts, docs/results.md "twenty-fourth round") and
# IMAD (fmaheavy); memory, shuffle, vote and branch instructions count as
# issue slots only.
PIPES = (
    ("xu", 8, re.compile(r"^(F2F|I2F|F2I|FRND)")),
    ("fp64", 2, re.compile(r"^(DADD|DFMA|DMUL|DSETP|DMNMX)")),
    ("fmaheavy", 2, re.compile(r"^(IMAD|IMUL)")),
    ("fma", 1, re.compile(r"^(FFMA|FADD|FMUL|HADD2|HFMA2|HMUL2)")),
    ("alu", 2, re.compile(r"^(LOP3|SHF|IADD3|VIADD|VIMNMX|IMNMX|ISETP|SEL|LEA|"
                          r"PLOP3|FMNMX|FSEL|FSETP|PRMT|BMSK|IABS)")),
)


def find_nvdisasm():
    """The nvdisasm binary, or None."""
    found = shutil.which("nvdisasm")
    if found:
        return found
    if os.access("/usr/local/cuda/bin/nvdisasm", os.X_OK):
        return "/usr/local/cuda/bin/nvdisasm"
    for p in sys.path:
        hits = glob.glob(os.path.join(p, "nvidia", "*", "bin", "nvdisasm"))
        if hits:
            return hits[0]
    return None


def read_sass(path):
    """The disassembly text of a cubin, or the file itself if it is text;
    exits 1 with a message where it cannot be read or disassembled."""
    try:
        with open(path, "rb") as f:
            head = f.read(4)
        if head != b"\x7fELF":
            with open(path, errors="replace") as f:
                return f.read()
    except OSError as e:
        sys.exit(f"sass_hot_loop: cannot read '{path}': {e.strerror}")
    tool = find_nvdisasm()
    if tool is None:
        sys.exit("sass_hot_loop: no nvdisasm (pip install nvidia-cuda-nvdisasm)")
    p = subprocess.run([tool, "-c", path], capture_output=True, text=True)
    if p.returncode != 0:
        said = p.stderr.strip().splitlines()
        sys.exit(f"sass_hot_loop: nvdisasm cannot read '{path}'" +
                 (f": {said[-1]}" if said else ""))
    return p.stdout


def positive_int(text):
    """argparse's type for --elems: a whole number above 0."""
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n <= 0:
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number above 0")
    return n


def regex(text):
    """argparse's type for a REGEX argument: compiled."""
    try:
        return re.compile(text)
    except re.error as e:
        raise argparse.ArgumentTypeError(f"'{text}' is not a regular expression ({e})")


def must(text):
    """argparse's type for --must: (compiled REGEX, COUNT) of REGEX:COUNT."""
    rx, sep, count = text.rpartition(":")
    if not sep or not rx:
        raise argparse.ArgumentTypeError(f"'{text}' is not REGEX:COUNT (e.g. 'F2F.F64:16')")
    return regex(rx), positive_int(count)


def function_lines(text, substring):
    """(name, lines) of the first function whose name holds substring."""
    name, lines = None, []
    for line in text.splitlines():
        m = FUNC.match(line)
        if m:
            if name is not None:
                break
            if substring in m.group(1):
                name = m.group(1)
            continue
        if name is not None:
            lines.append(line)
    return name, lines


def basic_blocks(lines):
    """Blocks as dicts: start address, instructions, successors (indexes)."""
    instrs, labels_at = [], {}
    pending = []
    for line in lines:
        m = LABEL.match(line)
        if m:
            pending.append(m.group(1))
            continue
        m = INSTR.match(line)
        if m:
            for lab in pending:
                labels_at[lab] = len(instrs)
            pending = []
            instrs.append((int(m.group(1), 16), m.group(2)))
    leaders = {0}
    for i, (_, text) in enumerate(instrs):
        op = opcode(text)
        if op.startswith("BRA") or op in ("EXIT", "RET"):
            leaders.add(i + 1)
    for lab, i in labels_at.items():
        leaders.add(i)
    starts = sorted(x for x in leaders if x < len(instrs))
    index_of = {s: k for k, s in enumerate(starts)}
    blocks = []
    for k, s in enumerate(starts):
        e = starts[k + 1] if k + 1 < len(starts) else len(instrs)
        body = instrs[s:e]
        succ = []
        last = body[-1][1]
        op = opcode(last)
        predicated = last.startswith("@")
        t = TARGET.search(last)
        if op.startswith("BRA") and t and t.group(1) in labels_at:
            succ.append(index_of[labels_at[t.group(1)]])
            if (predicated or op == "BRA.DIV") and e < len(instrs):
                succ.append(index_of[e])
        elif op in ("EXIT", "RET") and not predicated:
            pass
        elif e < len(instrs):
            succ.append(index_of[e])
        blocks.append({"start": body[0][0], "instrs": body, "succ": succ})
    return blocks


def opcode(text):
    """The opcode of an instruction's text, without its predicate."""
    words = text.split()
    if words and words[0].startswith("@"):
        words = words[1:]
    return words[0] if words else ""


def natural_loop(blocks, header, latch):
    """Blocks that reach the latch without passing through the header."""
    preds = collections.defaultdict(list)
    for i, b in enumerate(blocks):
        for s in b["succ"]:
            preds[s].append(i)
    body, stack = {header, latch}, [latch]
    while stack:
        n = stack.pop()
        for p in preds[n]:
            if p not in body:
                body.add(p)
                stack.append(p)
    return body


def hot_loop(blocks):
    """(header, body) of the first loop (by the header's address) that
    holds 16-byte global loads (LDG.E.128): the load layer's main loop,
    which every trip runs through first; or None."""
    best = None
    for i, b in enumerate(blocks):
        for s in b["succ"]:
            if blocks[s]["start"] <= b["start"]:
                body = natural_loop(blocks, s, i)
                loads = sum(1 for k in body for _, t in blocks[k]["instrs"]
                            if "LDG.E.128" in t)
                if loads == 0:
                    continue
                key = (-blocks[s]["start"], len(body))
                if best is None or key > best[0]:
                    best = (key, s, body)
    return None if best is None else (best[1], best[2])


def shortest_cycle(blocks, header, body, musts):
    """The cheapest cycle header -> header (inside body) executing at least
    each must's count of matching instructions: a list of block indexes."""
    def counts(k):
        return tuple(sum(1 for _, t in blocks[k]["instrs"] if rx.search(t))
                     for rx, _ in musts)

    caps = tuple(c for _, c in musts)
    per_block = {k: counts(k) for k in body}

    def add(have, k):
        return tuple(min(h + c, cap) for h, c, cap in zip(have, per_block[k], caps))

    start = (len(blocks[header]["instrs"]), header, add((0,) * len(musts), header))
    heap = [(start[0], header, start[2], (header,))]
    seen = set()
    while heap:
        cost, node, have, path = heapq.heappop(heap)
        if (node, have) in seen:
            continue
        seen.add((node, have))
        for s in blocks[node]["succ"]:
            if s not in body:
                continue
            if s == header:
                if have == caps:
                    return list(path)
                continue
            nh = add(have, s)
            heapq.heappush(heap, (cost + len(blocks[s]["instrs"]), s, nh, path + (s,)))
    return None


def pipe_cycles(texts):
    """(issue slots, {pipe: cycles}) of a list of instruction texts."""
    cycles = collections.Counter()
    for t in texts:
        op = opcode(t)
        for pipe, cost, rx in PIPES:
            if rx.match(op):
                cycles[pipe] += cost
                break
    return len(texts), cycles


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("file")
    ap.add_argument("--kernel", required=True)
    ap.add_argument("--elems", type=positive_int, required=True,
                    help="elements per thread per trip of the loop")
    ap.add_argument("--must", type=must, action="append", default=[],
                    help="REGEX:COUNT the common trip must execute")
    ap.add_argument("--until", type=regex, metavar="REGEX",
                    help="no loop: the code before the first match")
    ap.add_argument("--after", type=regex, metavar="REGEX",
                    help="with --until: only the code after the last match")
    ap.add_argument("--pipes", action="store_true",
                    help="the pipes' estimated cycles a warp (PIPES)")
    ap.add_argument("--show", action="store_true", help="print the cycle's code")
    args = ap.parse_args()
    if args.after and not args.until:
        ap.error("--after needs --until")
    name, lines = function_lines(read_sass(args.file), args.kernel)
    if name is None:
        sys.exit(f"sass_hot_loop: no function matching '{args.kernel}'")
    blocks = basic_blocks(lines)
    if args.until:
        return prefix_report(name, blocks, args.until, args)
    found = hot_loop(blocks)
    if found is None:
        sys.exit(f"sass_hot_loop: {name}: no loop")
    header, body = found
    cycle = shortest_cycle(blocks, header, body, args.must)
    if cycle is None:
        sys.exit(f"sass_hot_loop: {name}: no cycle meets the --must counts")
    texts = [t for k in cycle for _, t in blocks[k]["instrs"]]
    print(f"{name}")
    print(f"  hot loop: {len(body)} blocks, header at {blocks[header]['start']:#06x}")
    print_counts("common trip", texts, args.elems)
    skipped = sorted(k for k in body if k not in cycle)
    if skipped:
        print("  blocks of the loop off that trip (start: size): " +
              ", ".join(f"{blocks[k]['start']:#06x}: {len(blocks[k]['instrs'])}"
                        for k in skipped))
    if args.pipes:
        print_pipes(texts)
    if args.show:
        for k in cycle:
            for addr, t in blocks[k]["instrs"]:
                print(f"    {addr:#06x}  {t}")
    return 0


def print_counts(what, texts, elems):
    """The instructions' count, per element, and their mix by opcode."""
    mix = collections.Counter(opcode(t).split(".")[0] for t in texts)
    print(f"  {what}: {len(texts)} instructions, {elems} elements: "
          f"{len(texts) / elems:.2f} per element")
    print("  mix: " + ", ".join(f"{op} {n}" for op, n in mix.most_common()))


def print_pipes(texts):
    """The issue slots and each pipe's estimated cycles, one line."""
    issue, cycles = pipe_cycles(texts)
    print(f"  pipes, cycles a warp on one sub-partition: issue {issue}, " +
          ", ".join(f"{p} {cycles[p]}" for p, _, _ in PIPES))


def prefix_report(name, blocks, until, args):
    """The --until report: the code before the first match, as laid out."""
    laid_out = [t for b in blocks for _, t in b["instrs"]]
    first = next((i for i, t in enumerate(laid_out) if until.search(t)), None)
    if first is None:
        sys.exit(f"sass_hot_loop: {name}: nothing matches '{until.pattern}'")
    texts = laid_out[:first]
    where = f"before '{until.pattern}'"
    if args.after:
        last = max((i for i, t in enumerate(texts) if args.after.search(t)), default=None)
        if last is None:
            sys.exit(f"sass_hot_loop: {name}: nothing before '{until.pattern}' "
                     f"matches '{args.after.pattern}'")
        texts = texts[last + 1:]
        where = f"after the last '{args.after.pattern}' " + where
    print(f"{name}")
    print_counts(where, texts, args.elems)
    if args.pipes:
        print_pipes(texts)
    if args.show:
        for t in texts:
            print(f"    {t}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
