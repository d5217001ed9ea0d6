#!/usr/bin/env python3
"""step_test.py - `cured animate --step` driven in a pseudo-terminal.

    step_test.py CURED TREES_PTX

Runs the tree_forward fixture (the lesson's sequential tree over 0..63) with
--step in a pty, as a user at a terminal would: checks the first frame, a
step forward with space and with enter, a middle frame, a step back with b,
the last frame, that the end exits with status 0, that the terminal is in
raw mode (no echo, no line buffering) while it waits for a key and restored
afterwards, also when SIGTERM ends it; with colours (no --no-color) the
frames carry escape codes on a terminal and none when stdout is a pipe.
Exit 77 (skipped) where no pseudo-terminal can be opened.
"""
import os
import pty
import re
import select
import signal
import subprocess
import sys
import termios
import time

SKIP = 77


def args_for(trees):
    return ["animate", "--ptx", trees, "--entry", "tree_forward", "--block", "64",
            "--shared", "256", "--arg", "in=u32[64]:iota", "--arg", "out=u32[1]:zeros",
            "--arg", "u32:64", "--step"]


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


class Pty:
    def __init__(self, argv):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.execv(argv[0], argv)
        self.out = ""

    def read_until(self, pattern, timeout=20):
        """Reads until `pattern` (a regex) appears in what came since the last
        call; returns that text."""
        start = len(self.out)
        deadline = time.time() + timeout
        while not re.search(pattern, self.out[start:]):
            left = deadline - time.time()
            if left <= 0:
                fail("no %r in:\n%s" % (pattern, self.out[start:][-2000:]))
            ready, _, _ = select.select([self.fd], [], [], left)
            if ready:
                try:
                    chunk = os.read(self.fd, 65536)
                except OSError:
                    chunk = b""
                if not chunk:
                    fail("the program ended before %r:\n%s" % (pattern, self.out[start:][-2000:]))
                self.out += chunk.decode("utf-8", "replace")
        return self.out[start:]

    def send(self, keys):
        os.write(self.fd, keys.encode())

    def raw(self):
        lflag = termios.tcgetattr(self.fd)[3]
        return not (lflag & termios.ECHO) and not (lflag & termios.ICANON)

    def wait(self):
        deadline = time.time() + 20
        while time.time() < deadline:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                return status
            try:   # keep the pty drained
                if select.select([self.fd], [], [], 0.1)[0]:
                    os.read(self.fd, 65536)
            except OSError:
                pass
        fail("the program did not end")


def frame(p, k, n, want, keys=None):
    if keys:
        p.send(keys)
    text = p.read_until(r"\[step %d/%d\]" % (k, n))
    for w in want:
        if w not in text:
            fail("frame %d lacks %r:\n%s" % (k, w, text[-3000:]))
    return text


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    cured, trees = sys.argv[1], sys.argv[2]
    try:
        p = Pty([cured] + args_for(trees) + ["--no-color"])
    except OSError as e:
        print("SKIP: no pseudo-terminal here (%s)" % e)
        return SKIP

    # the first frame, then forward with space and with enter
    t = frame(p, 0, 8, ["step 0/8 tree_forward: 64 values (u32)", "Before the first step"])
    if "\x1b" in t:
        fail("escape codes with --no-color")
    if not p.raw():
        fail("the terminal is not in raw mode while waiting for a key")
    frame(p, 1, 8, ["64 threads read 64 values from global memory"], " ")
    frame(p, 2, 8, ["stride 32: threads 0-31 add x[tid + 32] into x[tid]"], "\r")
    # a middle frame, and a step back
    frame(p, 4, 8, ["stride 8: threads 0-7 add x[tid + 8] into x[tid]",
                    "counts: shared accesses 168, __syncthreads 3"], "  ")
    frame(p, 3, 8, ["stride 16: threads 0-15 add x[tid + 16] into x[tid]",
                    "counts: shared accesses 144, __syncthreads 2"], "b")
    # the last frame, and past it the program ends
    frame(p, 8, 8, ["copies x[0] = 2016 to out[0]", "counts: shared accesses 189, __syncthreads 6",
                    "additions 63 (n - 1 = 63)"], "nnnnn")
    p.send(" ")
    status = p.wait()
    if not os.WIFEXITED(status) or os.WEXITSTATUS(status) != 0:
        fail("exit status %r after the last frame" % status)
    print("--step: first, forward (space, enter), middle, back (b), last frame: ok")

    # colours on a terminal: escape codes; SIGTERM restores the terminal
    p = Pty([cured] + args_for(trees))
    before = termios.tcgetattr(p.fd)
    t = p.read_until(r"\[step 0/8\]")
    if "\x1b[" not in t:
        fail("no escape codes on a terminal with colours")
    deadline = time.time() + 5
    while not p.raw() and time.time() < deadline:
        time.sleep(0.05)
    if not p.raw():
        fail("not in raw mode")
    os.kill(p.pid, signal.SIGTERM)
    status = p.wait()
    if not os.WIFSIGNALED(status) or os.WTERMSIG(status) != signal.SIGTERM:
        fail("SIGTERM did not end it as SIGTERM does (%r)" % status)
    after = termios.tcgetattr(p.fd)
    if p.raw():
        fail("the terminal stayed in raw mode after SIGTERM")
    if after[3] & (termios.ECHO | termios.ICANON) != before[3] & (termios.ECHO | termios.ICANON) \
            and before[3] & termios.ECHO:
        fail("the terminal's settings changed")
    print("raw mode while waiting, restored on SIGTERM: ok")

    # stdout a pipe: every frame, plain, at once
    args = [a for a in args_for(trees) if a != "--step"]
    start = time.time()
    r = subprocess.run([cured] + args, capture_output=True, text=True, timeout=60)
    if r.returncode != 0 or "\x1b" in r.stdout or r.stdout.count("\nstep ") + 1 != 9:
        fail("plain frames to a pipe: status %d, %d frames" % (r.returncode, r.stdout.count("step ")))
    print("to a pipe: 9 plain frames in %.2f s: ok" % (time.time() - start))
    return 0


if __name__ == "__main__":
    sys.exit(main())
