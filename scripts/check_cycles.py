#!/usr/bin/env python3
"""check_cycles.py - fails when two source files call into each other.

    scripts/check_cycles.py [--build DIR] [--root DIR] [-I DIR]... [--nm NM] [-v]

The house rule: no two files call into each other, directly or through
others. This builds the project's file graph and looks for circles in it:

  nodes  every .c, .cu, .h and .cuh file under ROOT/src and ROOT/include
  edges  "includes": an `#include "x.h"` line, resolved as the compiler does
         (the including file's own directory, then the include directories);
         `#include <x.h>` counts only when it resolves into the project.
         Headers that resolve outside the nodes (system, generated) are left out.
         "calls"/"uses": for every object file of the build that comes from a
         source under ROOT/src, `nm` lists what it defines and what it leaves
         undefined; an undefined function (data) symbol of a.o that b.o defines
         is an edge a.c -> b.c.

The include directories come from DIR/compile_commands.json (CMake writes it
with CMAKE_EXPORT_COMPILE_COMMANDS=ON, which the top CMakeLists sets), with
any -I given here searched after them. The same file maps every object back
to its source; without it the CMake object path
`<dir>/CMakeFiles/<target>.dir/<path>.c.o` (source `<dir>/<path>.c` beside
the build's `<dir>`) or a unique source of the object's name is used.

Symbols are resolved sensibly: a symbol defined (strongly) by one source
file is an edge target; weak definitions lose to a strong one and, when
several sources hold only weak copies (C++ inline code from a header, whose
include edge already stands for it), give no edge; several strong
definitions (alternatives for different programs) give no edge either and are
listed with -v. CUDA's generated symbols (fatbinary registration, device
stubs) are left out. Objects of tests (anything not under ROOT/src) are no
nodes and define nothing here.

A cycle is a strongly connected component of more than one file (Tarjan).
For each one: a line naming its files, then one concrete circle through its
first file, an edge a line, each with its kind and one symbol or header.

Exit status: 0 and "N files, M edges, no cycles" when there is none; 1 when
there are cycles; 2 with one line on a usage error, a missing build directory,
a build with no objects of ROOT/src, or an incomplete or out-of-date build (an
object of ROOT/src that compile_commands.json names is missing or older than
its source: run `cmake --build` first).
"""

import argparse
import collections
import json
import os
import re
import shlex
import shutil
import subprocess
import sys

SOURCE_EXTS = (".c", ".cu", ".h", ".cuh")
OBJECT_EXTS = (".o", ".obj")

# nm's letters (POSIX format). Upper case is global; lower case is local,
# except w/v (weak undefined) which are references.
STRONG_DEFS = set("TDBRGSiu")
WEAK_DEFS = set("WV")
COMMON_DEFS = set("C")
REFS = set("Uwv")
TEXT_TYPES = set("TtWwi")

# What nvcc and the C/C++ runtimes generate: never an edge of ours.
GENERATED_SYMBOL = re.compile(
    r"(^__cuda|^__fatbinwrap|^__nv_|^__sti__|^__device_stub|__device_stub__"
    r"|^_ZL\d+__sti__|^_ZL\d+__cuda|^fatbinData$|^__fatDeviceText$"
    r"|^_GLOBAL_|^__dso_handle$|^_GLOBAL_OFFSET_TABLE_$|^__gmon_start__$"
    r"|^_ITM_|^__cxa_|^__gxx_personality|^__TMC_END__$)")

INCLUDE_LINE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*([<"])([^>"]+)[>"]', re.M)


class UsageError(Exception):
    """One line for the user; exit status 2."""


def fail(message):
    """Prints message as the one error line and exits 2."""
    print(f"check_cycles: {message}", file=sys.stderr)
    sys.exit(2)


# ----------------------------------------------------------------------------
# nodes and include edges

def find_sources(root):
    """Every source file under root/src and root/include, as absolute paths."""
    found = []
    for top in ("src", "include"):
        base = os.path.join(root, top)
        for dirpath, dirnames, filenames in os.walk(base):
            dirnames.sort()
            for name in sorted(filenames):
                if name.endswith(SOURCE_EXTS):
                    found.append(os.path.realpath(os.path.join(dirpath, name)))
    return found


def strip_comments(text):
    """text with /* */ and // comments blanked (newlines kept), strings kept,
    so a commented-out #include is no edge."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "/" and i + 1 < n and text[i + 1] == "*":
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append("\n" * text.count("\n", i, end))
            i = end
        elif c == "/" and i + 1 < n and text[i + 1] == "/":
            end = text.find("\n", i)
            i = n if end < 0 else end
        elif c == '"':
            end = i + 1
            while end < n and text[end] not in '"\n':
                end += 2 if text[end] == "\\" else 1
            out.append(text[i:end + 1])
            i = end + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def read_includes(path):
    """(bracket, name) of every #include line of path, in order."""
    with open(path, encoding="utf-8", errors="replace") as f:
        text = strip_comments(f.read())
    return INCLUDE_LINE.findall(text)


def resolve_include(including, bracket, name, dirs, nodes):
    """The node that `#include <name>` / "name" in file `including` names,
    or None (a system header, a generated file, or not found)."""
    search = list(dirs)
    if bracket == '"':
        search.insert(0, os.path.dirname(including))
    for d in search:
        candidate = os.path.realpath(os.path.join(d, name))
        if os.path.isfile(candidate):
            return candidate if candidate in nodes else None
    return None


# ----------------------------------------------------------------------------
# compile_commands.json

def command_args(entry):
    """The argument list of one compile_commands.json entry, with nvcc's
    --options-file contents spliced in."""
    if "arguments" in entry:
        args = list(entry["arguments"])
    else:
        args = shlex.split(entry.get("command", ""))
    directory = entry.get("directory", ".")
    out = []
    i = 0
    while i < len(args):
        a = args[i]
        rsp = None
        if a in ("--options-file", "-optf") and i + 1 < len(args):
            rsp, i = args[i + 1], i + 1
        elif a.startswith("@"):
            rsp = a[1:]
        if rsp is not None:
            path = os.path.join(directory, rsp)
            try:
                with open(path, encoding="utf-8") as f:
                    out.extend(shlex.split(f.read()))
            except OSError:
                pass
        else:
            out.append(a)
        i += 1
    return out


def include_dirs_of(args, directory):
    """The include directories of one command line, in search order."""
    dirs = []
    separate = ("-I", "-iquote", "-isystem", "--include-path")
    joined = ("--include-path=", "-iquote", "-isystem", "-I")
    i = 0
    while i < len(args):
        a = args[i]
        value = None
        if a in separate and i + 1 < len(args):
            value, i = args[i + 1], i + 1
        else:
            for flag in joined:
                if a.startswith(flag):
                    value = a[len(flag):]
                    break
        if value:
            dirs.append(os.path.realpath(os.path.join(directory, value)))
        i += 1
    return dirs


def output_of(args, directory):
    """The object file a command line writes (-o), absolute, or None."""
    for i, a in enumerate(args):
        if a == "-o" and i + 1 < len(args):
            return os.path.realpath(os.path.join(directory, args[i + 1]))
        if a.startswith("-o") and len(a) > 2 and not a.startswith("-optf"):
            return os.path.realpath(os.path.join(directory, a[2:]))
    return None


def read_compile_commands(build):
    """(object -> source, source -> include dirs, all include dirs in first-
    seen order) from build/compile_commands.json; empty when it is absent."""
    path = os.path.join(build, "compile_commands.json")
    if not os.path.isfile(path):
        return {}, {}, []
    try:
        with open(path, encoding="utf-8") as f:
            entries = json.load(f)
    except (OSError, ValueError) as e:
        raise UsageError(f"cannot read {path}: {e}")
    objects, per_source, all_dirs = {}, {}, []
    for entry in entries:
        directory = entry.get("directory", ".")
        source = os.path.realpath(os.path.join(directory, entry["file"]))
        args = command_args(entry)
        dirs = include_dirs_of(args, directory)
        per_source.setdefault(source, dirs)
        for d in dirs:
            if d not in all_dirs:
                all_dirs.append(d)
        obj = entry.get("output")
        obj = (os.path.realpath(os.path.join(directory, obj)) if obj
               else output_of(args, directory))
        if obj:
            objects[obj] = source
    return objects, per_source, all_dirs


# ----------------------------------------------------------------------------
# object files and symbol edges

def find_objects(build):
    """Every object file under build, sorted."""
    found = []
    for dirpath, dirnames, filenames in os.walk(build):
        dirnames.sort()
        for name in sorted(filenames):
            if name.endswith(OBJECT_EXTS):
                found.append(os.path.realpath(os.path.join(dirpath, name)))
    return found


def source_of_object(obj, build, root, by_basename):
    """The source an object was compiled from when compile_commands.json does
    not say: CMake's CMakeFiles/<target>.dir/<path>.o convention, else (outside
    that layout) the one source whose name is the object's stem; None when
    neither finds it."""
    rel = os.path.relpath(obj, build)
    parts = rel.split(os.sep)
    for k, part in enumerate(parts):
        if part == "CMakeFiles" and k + 1 < len(parts) and parts[k + 1].endswith(".dir"):
            inner = [".." if p == "__" else p for p in parts[k + 2:]]
            stem = os.path.join(*inner)
            for ext in OBJECT_EXTS:
                if stem.endswith(ext):
                    stem = stem[:-len(ext)]
            candidate = os.path.realpath(os.path.join(root, *parts[:k], stem))
            # an object in CMake's layout whose source is not there is no
            # node's (a generated source); its name alone would mislead
            return candidate if os.path.isfile(candidate) else None
    stem = os.path.basename(obj)
    for ext in OBJECT_EXTS:
        if stem.endswith(ext):
            stem = stem[:-len(ext)]
    if stem.endswith(SOURCE_EXTS):
        matches = by_basename.get(stem, [])
    else:
        matches = [m for ext in (".c", ".cu") for m in by_basename.get(stem + ext, [])]
    return matches[0] if len(matches) == 1 else None


def nm_symbols(nm, obj):
    """[(name, type letter)] of one object file, from `nm -P`."""
    try:
        run = subprocess.run([nm, "-P", obj], capture_output=True, text=True)
    except OSError as e:
        raise UsageError(f"cannot run {nm}: {e.strerror}")
    if run.returncode != 0:
        first = (run.stderr.strip().splitlines() or ["failed"])[0]
        raise UsageError(f"{nm} failed on {obj}: {first}")
    symbols = []
    for line in run.stdout.splitlines():
        fields = line.split()
        if len(fields) >= 2 and len(fields[1]) == 1:
            symbols.append((fields[0], fields[1]))
    return symbols


def symbol_edges(object_sources, nm):
    """{(a, b): [(kind, symbol)]} for sources a, b (a != b) where a's object
    references a symbol that b's object defines, and the list of symbols
    left out because several sources define them strongly."""
    strong = collections.defaultdict(set)
    weak = collections.defaultdict(set)
    common = collections.defaultdict(set)
    is_text = {}
    refs = collections.defaultdict(set)
    for obj, source in object_sources:
        for name, kind in nm_symbols(nm, obj):
            if GENERATED_SYMBOL.search(name):
                continue
            if kind in REFS:
                refs[source].add(name)
            elif kind in STRONG_DEFS:
                strong[name].add(source)
            elif kind in WEAK_DEFS:
                weak[name].add(source)
            elif kind in COMMON_DEFS:
                common[name].add(source)
            else:
                continue
            if kind not in REFS:
                is_text[name] = kind in TEXT_TYPES

    def definer(name):
        for defs in (strong.get(name), common.get(name), weak.get(name)):
            if defs:
                return next(iter(defs)) if len(defs) == 1 else None
        return None

    ambiguous = sorted(n for n, d in strong.items() if len(d) > 1)
    edges = collections.defaultdict(list)
    for source, names in refs.items():
        for name in sorted(names):
            target = definer(name)
            if target is not None and target != source:
                edges[(source, target)].append(
                    ("calls" if is_text.get(name, True) else "uses", name))
    return edges, ambiguous


# ----------------------------------------------------------------------------
# the graph: strongly connected components and one circle in each

def strongly_connected(nodes, succ):
    """Tarjan's algorithm, iterative: the components, each a sorted list."""
    index, low, on_stack = {}, {}, set()
    stack, components, counter = [], [], 0
    for start in nodes:
        if start in index:
            continue
        work = [(start, iter(succ.get(start, ())))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(succ.get(child, ()))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                components.append(sorted(component))
    return components


def shortest_circle(start, members, succ):
    """The shortest path start -> ... -> start inside members (breadth first),
    as a list of nodes beginning and ending with start."""
    members = set(members)
    parent = {}
    queue = collections.deque([start])
    seen = {start}
    while queue:
        node = queue.popleft()
        for child in sorted(succ.get(node, ())):
            if child not in members:
                continue
            if child == start:
                path = [node]
                while path[-1] != start:
                    path.append(parent[path[-1]])
                return list(reversed(path)) + [start]
            if child not in seen:
                seen.add(child)
                parent[child] = node
                queue.append(child)
    return [start]


def demangle(names, cxxfilt):
    """{name: demangled} for the C++ names among names (c++filt, when found)."""
    mangled = [n for n in names if n.startswith("_Z")]
    if not mangled or not cxxfilt:
        return {}
    run = subprocess.run([cxxfilt], input="\n".join(mangled), capture_output=True, text=True)
    if run.returncode != 0:
        return {}
    return dict(zip(mangled, run.stdout.splitlines()))


def describe(reasons, names):
    """'calls f' / 'includes x.h', with a count of the others."""
    kind, what = reasons[0]
    text = f"{kind} {names.get(what, what)}"
    if len(reasons) > 1:
        text += f" and {len(reasons) - 1} more"
    return text


# ----------------------------------------------------------------------------

def main(argv):
    """Checks the tree argv names; returns 0 (no cycles) or 1 (cycles, each
    printed). Raises UsageError for what ends in exit 2."""
    parser = argparse.ArgumentParser(
        prog="check_cycles.py",
        description="Fails (exit 1) when source files under src/ and include/ "
                    "call or include each other in a circle; exit 2 on usage errors.")
    here = os.path.dirname(os.path.realpath(__file__))
    parser.add_argument("--root", default=os.path.dirname(here),
                        help="the project's root (default: this script's ..)")
    parser.add_argument("--build", default=None,
                        help="the build directory with the objects (default: ROOT/build)")
    parser.add_argument("-I", dest="include", action="append", default=[],
                        metavar="DIR", help="an include directory (after compile_commands.json's)")
    parser.add_argument("--nm", default=os.environ.get("NM", "nm"), help="nm to run (default: nm)")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="also list every edge and the symbols left out")
    args = parser.parse_args(argv)

    root = os.path.realpath(args.root)
    build = os.path.realpath(args.build or os.path.join(root, "build"))
    if not os.path.isdir(os.path.join(root, "src")):
        raise UsageError(f"no src/ under the root {root} (use --root)")
    if not os.path.isdir(build):
        raise UsageError(f"no build directory {build} (build first: "
                         f"cmake -S . -B build && cmake --build build)")
    if shutil.which(args.nm) is None:
        raise UsageError(f"no nm ('{args.nm}'): install binutils or pass --nm")

    sources = find_sources(root)
    nodes = set(sources)
    src_dir = os.path.join(root, "src") + os.sep
    rel = lambda p: os.path.relpath(p, root)

    objects, per_source, cc_dirs = read_compile_commands(build)
    extra_dirs = [os.path.realpath(d) for d in args.include]

    # include edges
    edges = collections.defaultdict(list)
    outside = []
    for source in sources:
        dirs = per_source.get(source, []) + [d for d in cc_dirs + extra_dirs
                                             if d not in per_source.get(source, [])]
        for bracket, name in read_includes(source):
            target = resolve_include(source, bracket, name, dirs, nodes)
            if target is not None and target != source:
                edges[(source, target)].append(("includes", name))
            elif target is None and bracket == '"':
                outside.append((source, name))

    # symbol edges: the objects of src/, mapped to their sources
    missing = sorted(o for o, s in objects.items()
                     if s in nodes and s.startswith(src_dir) and not os.path.isfile(o))
    if missing:
        raise UsageError(f"the build in {build} is incomplete: {len(missing)} object(s) "
                         f"of src/ missing, first {missing[0]} (run cmake --build first)")
    stale = sorted(o for o, s in objects.items()
                   if s in nodes and s.startswith(src_dir)
                   and os.path.getmtime(o) < os.path.getmtime(s))
    if stale:
        raise UsageError(f"the build in {build} is out of date: {len(stale)} object(s) "
                         f"older than their source, first {stale[0]} (run cmake --build first)")
    by_basename = collections.defaultdict(list)
    for s in sources:
        by_basename[os.path.basename(s)].append(s)
    object_sources = []
    for obj in find_objects(build):
        source = objects.get(obj) or source_of_object(obj, build, root, by_basename)
        if source in nodes and source.startswith(src_dir):
            object_sources.append((obj, source))
    if not object_sources:
        raise UsageError(f"no object files of src/ under {build} "
                         f"(build first: cmake --build {build})")
    sym_edges, ambiguous = symbol_edges(object_sources, args.nm)
    for key, reasons in sym_edges.items():
        edges[key].extend(reasons)

    succ = collections.defaultdict(set)
    for a, b in edges:
        succ[a].add(b)
    cycles = [c for c in strongly_connected(sources, succ) if len(c) > 1]
    cycles.sort(key=lambda c: [rel(p) for p in c])

    names = demangle({w for r in edges.values() for _, w in r}, shutil.which("c++filt"))
    if args.verbose:
        for (a, b), reasons in sorted(edges.items()):
            print(f"edge {rel(a)} -> {rel(b)} ({describe(reasons, names)})")
        for name in ambiguous:
            print(f"left out: {names.get(name, name)} (defined in several sources)")
        for source, name in outside:
            print(f"left out: {rel(source)} includes \"{name}\" (not a file of the project)")

    plural = lambda n, word: f"{n} {word}" + ("" if n == 1 else "s")
    summary = (f"{plural(len(sources), 'file')} ({plural(len(object_sources), 'object')}), "
               f"{plural(len(edges), 'edge')}")
    if not cycles:
        print(f"check_cycles: {summary}, no cycles")
        return 0
    for component in cycles:
        print(f"cycle of {len(component)} files: {' '.join(rel(p) for p in component)}")
        circle = shortest_circle(component[0], component, succ)
        for a, b in zip(circle, circle[1:]):
            print(f"  {rel(a)} -> {rel(b)} ({describe(edges[(a, b)], names)})")
    print(f"check_cycles: {summary}, {plural(len(cycles), 'cycle')}")
    return 1


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except UsageError as e:
        fail(str(e))
