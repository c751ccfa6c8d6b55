"""`pzc` with its standard error on a pseudo-terminal, where the progress
line shows (tests/test_progress.py, tests/test_interrupt.py)."""

from __future__ import annotations

import os
import pty
import re
import select
import signal
import subprocess
import sys

# the progress line from the first moment (by default it waits a second)
AT_ONCE = {"PZC_PROGRESS_AFTER": "0"}


def blank(h, w):
    """An empty h x w board: rows of '.'."""
    return ("." * w + "\n") * h


def _sigint_as_in_a_shell():
    """pzc started as a shell starts it: SIGINT handled by default and not
    blocked (a disposition left by an earlier test in this process would be
    inherited, and in the whole suite pzc then ran on past the signal)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def solving_on_a_terminal(tmp_path, side):
    """``pzc solve slitherlink`` on a blank side x side board, its standard
    error a pseudo-terminal (the progress line at once), started as a shell
    starts it; returns (process, the terminal's master end, what it showed
    up to "solving")."""
    (tmp_path / "blank.txt").write_text(blank(side, side))
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "pzc.cli", "solve", "slitherlink",
                             "blank.txt"], cwd=tmp_path, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=slave, start_new_session=True,
                            env=dict(os.environ, TERM="xterm", **AT_ONCE),
                            preexec_fn=_sigint_as_in_a_shell)
    os.close(slave)
    received = b""
    try:
        while b"solving" not in received:
            ready, _, _ = select.select([master], [], [], 60)
            assert ready, received
            received += os.read(master, 1 << 16)
    except BaseException:
        os.close(master)
        proc.kill()
        raise
    return proc, master, received


ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def run_on_terminal(args, cwd, env=None, timeout=120):
    """Run pzc with standard error on a pseudo-terminal and standard output on
    a pipe; (exit code, stdout, what the terminal received with the escape
    sequences taken out)."""
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "pzc.cli", *args], cwd=cwd,
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=slave,
                            env=dict(os.environ, TERM="xterm", **(env or {})))
    os.close(slave)
    received = b""
    try:
        while True:
            ready, _, _ = select.select([master], [], [], timeout)
            if not ready:
                raise TimeoutError(f"pzc {args} wrote nothing for {timeout} s")
            try:
                chunk = os.read(master, 1 << 16)
            except OSError:                 # every writer of the terminal is gone
                break
            if not chunk:
                break
            received += chunk
        out = proc.stdout.read().decode()
        proc.wait(timeout)
    finally:
        os.close(master)
        if proc.poll() is None:
            proc.kill()
    return proc.returncode, out, ANSI.sub("", received.decode(errors="replace"))
