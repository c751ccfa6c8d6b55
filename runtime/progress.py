"""Progress reports: what the pipeline says while it works, and the terminal line
that shows it.

The pipeline (the tasks and the stages they drive) reports through one callback,
``progress(event, **figures)``, called at stage boundaries and once per solver
round, plan step or solution, never per clause, so it costs nothing measurable:

    grounding, encoding,   a phase begins (no figures); a plan's steps are
    solving, verifying     encoded while it is being solved
    round                  lazy connectivity (backends/sat.py): a solver call
                           gave a model that broke connectivity and was cut off;
                           rounds=solver calls so far, cuts=cuts added so far
    depth                  plan deepening: looking for plans of steps=N moves
    solution               count, unique and deduce: count=solutions so far

The command line adds two of its own: ``reading`` (instance files are being
read) and ``instance`` (name=, index= counting from 1, total=).  Rounds solved
in a worker process under a time limit are reported back and called here
(backends/worker.py).

`Display` draws them on standard error with rich, as a transient line with a
spinner that appears once the command has run for a second.  It draws from a
separate process: PySAT holds the interpreter lock while it solves, so a thread
in this process could not redraw during a long solve call.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import time

from .errors import PzcError, plural, printable

SHOW_AFTER_S = 1.0          # a quicker command shows no progress at all
SEND_EVERY_S = 0.1          # repeats of one event (rounds, solutions) at most this often
TICK_S = 0.1                # the line is redrawn this often
ACK_WAIT_S = 2.0            # how long to wait for the line to be cleared


_drawing = set()             # the processes of the lines open now, for stop_lines


def stop_lines() -> None:
    """Clear every progress line now, from any thread: Ctrl-C reaches the main
    thread while the command (and its line) still runs on another
    (runtime/deep_stack.py), and its message must not land on the line."""
    for proc in list(_drawing):
        try:
            os.kill(proc.pid, signal.SIGINT)        # the line clears itself and stops
        except OSError:
            pass
        proc.join(ACK_WAIT_S)
        _drawing.discard(proc)


def no_progress(event: str, **figures) -> None:
    """The callback that reports nothing (the default everywhere)."""


def show_after() -> float:
    """The delay before the line appears: PZC_PROGRESS_AFTER seconds if set
    (the tests use 0 to see it at once), else one second."""
    text = os.environ.get("PZC_PROGRESS_AFTER")
    if text is None:
        return SHOW_AFTER_S
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value >= 0:
        raise PzcError(f"PZC_PROGRESS_AFTER is a number of seconds, at least 0, not {text!r}")
    return value


def wanted(quiet: bool) -> bool:
    """Progress shows on a terminal's standard error only, and never with --quiet."""
    if quiet or os.environ.get("TERM") in ("dumb", "unknown"):
        return False
    try:
        return sys.stderr.isatty() and "fork" in multiprocessing.get_all_start_methods()
    except (AttributeError, ValueError):            # no stderr, or a closed one
        return False


class Display:
    """The progress line of one command.  ``callback`` is None when nothing is
    shown; otherwise call it with the pipeline's events, call ``pause()``
    before writing to standard output or error, and ``close()`` at the end."""

    def __init__(self, quiet: bool = False):
        self.conn = None
        self.callback = None
        if not wanted(quiet):
            return
        delay = show_after()
        ctx = multiprocessing.get_context("fork")
        self.conn, theirs = ctx.Pipe()
        for stream in (sys.stdout, sys.stderr):    # nothing buffered twice in the fork
            try:
                stream.flush()
            except (AttributeError, OSError, ValueError):     # none, full or closed
                pass
        self.proc = ctx.Process(target=_draw, args=(theirs, delay, self.conn), daemon=True)
        self.proc.start()
        _drawing.add(self.proc)
        theirs.close()
        self.callback = self
        self.last_event, self.last_sent, self.pending = None, 0.0, None

    def __call__(self, event: str, **figures) -> None:
        now = time.perf_counter()
        if event == self.last_event and now - self.last_sent < SEND_EVERY_S:
            self.pending = (event, figures)         # sent later, or before a pause
            return
        self._send_pending()
        self.last_event, self.last_sent = event, now
        self._send(("event", event, figures))

    def _send_pending(self):
        if self.pending is not None:
            self._send(("event", *self.pending))
            self.pending = None

    def pause(self) -> None:
        """Clear the line (it comes back at the next redraw) so that output
        written now is not mixed with it."""
        if self.conn is None:
            return
        self._send_pending()
        self._send(("pause",))
        self._wait()

    def close(self) -> None:
        if self.conn is None:
            return
        self.pause()
        self._send(("close",))
        if self.conn is not None:
            self.conn.close()
            self.conn = None
            self.proc.join(ACK_WAIT_S)
            _drawing.discard(self.proc)

    def _send(self, message) -> None:
        if self.conn is None:
            return
        try:
            self.conn.send(message)
        except OSError:                             # the drawing process is gone
            self._give_up()

    def _wait(self) -> None:
        try:
            if self.conn is not None and self.conn.poll(ACK_WAIT_S):
                self.conn.recv()
                return
        except (OSError, EOFError):
            pass
        self._give_up()

    def _give_up(self) -> None:
        self.conn = None
        self.callback = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class _State:
    """What the line says: the instance, the phase and the figures so far."""

    def __init__(self):
        self.start = time.perf_counter()
        self.instance = None
        self.phase = None
        self.figures = {}

    def take(self, event, figures):
        if event == "instance":
            self.instance = figures
            self.phase, self.figures = None, {}
        elif event in ("round", "depth", "solution"):
            self.figures.update(figures)
        else:
            self.phase = event

    def text(self) -> str:
        parts = [f"{time.perf_counter() - self.start:.1f} s"]
        if self.instance is not None:      # the file's name: the figures matter more than its folder
            name = printable(os.path.basename(self.instance["name"]) or self.instance["name"])
            k, n = self.instance["index"], self.instance["total"]
            parts.append(f"{name} ({k}/{n})" if n > 1 else name)
        words = [] if self.phase is None else [self.phase]
        f = self.figures
        if "rounds" in f:
            words.append(f"{plural(f['rounds'], 'round')}, {plural(f['cuts'], 'cut')}")
        if "steps" in f:
            words.append(f"plans of {plural(f['steps'], 'move')}")
        if "count" in f:
            words.append(plural(f["count"], "solution"))
        if words:
            parts.append(words[0] + (": " + ", ".join(words[1:]) if words[1:] else ""))
        return "  ".join(parts)


class _Line:
    """The line on the terminal, drawn with rich: a spinner and the state's
    text, cut to one row.  rich is imported at the first drawing, so that a
    quick command does not wait for it."""

    def __init__(self):
        self.live = None
        self.console = self.spinner = None

    def draw(self, state, refresh=True):
        from rich.text import Text
        if self.console is None:
            from rich.console import Console
            from rich.spinner import Spinner
            self.console = Console(file=sys.stderr)
            self.spinner = Spinner("dots")
        line = Text(state.text())
        line.truncate(max(self.console.width - 3, 10), overflow="ellipsis")
        self.spinner.update(text=line)
        if self.live is None:
            from rich.live import Live
            self.live = Live(self.spinner, console=self.console, transient=True,
                             auto_refresh=False, redirect_stdout=False, redirect_stderr=False)
            self.live.start()
        if refresh:
            self.live.refresh()

    def clear(self, state):
        if self.live is not None:
            self.draw(state, refresh=False)         # stop() draws the newest figures, then clears
            self.live.stop()
            self.live = None


def _draw(conn, delay, parents_end):
    """The drawing process: take events, redraw every TICK_S once ``delay``
    has passed; on pause, draw the newest state if the line shows, clear it
    and say so.  (An instance solved between two redraws is not drawn: a file
    of many quick instances costs one message round trip each, not a redraw.)"""
    # closed here, so that a command that dies without a word (SIGKILL, an
    # abort) ends the connection, and the line clears and stops, not redraws on
    parents_end.close()
    for sig in (signal.SIGINT, signal.SIGTERM):    # Ctrl-C, or the command's exit: clear, stop
        signal.signal(sig, _stop)
    sys.stdout = open(os.devnull, "w")              # never a byte on standard output
    state = _State()
    line = _Line()
    try:
        _serve(conn, delay, state, line)
    except Exception:           # _Stop, or a line that fails: never worth a traceback
        try:
            line.clear(state)
        except Exception:
            pass


class _Stop(Exception):
    pass


def _stop(signum, frame):
    for sig in (signal.SIGINT, signal.SIGTERM):    # once is enough
        signal.signal(sig, signal.SIG_IGN)
    raise _Stop


def _serve(conn, delay, state, line):
    seen = False                                    # an event since the last pause
    next_tick = time.perf_counter()
    while True:
        wait = next_tick - time.perf_counter()
        try:
            message = conn.recv() if wait > 0 and conn.poll(wait) else None
        except (EOFError, OSError):                 # the command is gone
            line.clear(state)
            return
        if message is None:                         # time to redraw
            if seen and time.perf_counter() - state.start >= delay:
                line.draw(state)
            next_tick = time.perf_counter() + TICK_S
        elif message[0] == "event":
            state.take(message[1], message[2])
            seen = True
        elif message[0] == "pause":
            line.clear(state)
            seen = False
            conn.send("paused")
        else:                                       # close
            line.clear(state)
            return


SLOWEST = 3                 # the batch summary names this many of the slowest instances


class BatchBar:
    """pzc batch's standard error: a progress bar (done/total, rate, time
    left) on a terminal, and a summary at the end, neither with --quiet.  In
    a batch this process only waits for its workers, so rich draws the bar
    from a thread here, started once they are forked.  ``callback`` takes api.batch's events; ``codes``
    collects the exit codes of the results."""

    def __init__(self, quiet: bool = False, resumed: str | None = None):
        self.quiet, self.resumed = quiet, resumed
        self.codes, self.statuses, self.times = [], {}, []
        self.cpu_s, self.total, self.skipped = 0.0, 0, 0
        self.began = self.started = time.perf_counter()
        self.bar = self.task = None
        if wanted(quiet):
            from rich.console import Console
            from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                                       TimeElapsedColumn, TimeRemainingColumn)
            self.bar = Progress(TextColumn("batch"), BarColumn(), MofNCompleteColumn(),
                                TextColumn("{task.fields[rate]}"), TimeElapsedColumn(),
                                TextColumn("left"), TimeRemainingColumn(),
                                console=Console(stderr=True), transient=True)

    def __enter__(self):
        return self

    def callback(self, event: str, **figures) -> None:
        if event == "batch":         # the workers are forked: rich's thread may start
            self.total, self.skipped = figures["total"], figures["skipped"]
            self.started = time.perf_counter()
            if self.bar is not None:
                self.bar.start()
                self.task = self.bar.add_task("batch", total=self.total, rate="")
        elif event == "finished":
            self.codes.append(figures["code"])
            status = figures["status"]
            self.statuses[status] = self.statuses.get(status, 0) + 1
            self.times.append((figures["wall_s"], figures["name"]))
            self.cpu_s += figures["cpu_s"]
            if self.task is not None:
                done, spent = len(self.codes), time.perf_counter() - self.started
                rate = f"{done / spent:.2f}/s" if spent >= 1.0 else ""
                self.bar.update(self.task, completed=done, rate=rate)

    def error(self, result: dict) -> None:
        """An instance's error, said on standard error as it comes (not with --quiet)."""
        error = result.get("error")
        if self.quiet or not error:
            return
        where = ":".join(str(x) for x in (error.get("file"), error.get("line"),
                                          error.get("column")) if x is not None)
        text = printable(f"{result['instance']}: error: {error['message']}"
                         + (f" ({where})" if where else ""))
        if self.bar is not None:
            self.bar.console.print(text, markup=False, highlight=False)
        else:
            print(text, file=sys.stderr, flush=True)

    def __exit__(self, kind, value, tb):
        if self.task is not None:
            self.bar.stop()
        if kind is None and not self.quiet:
            print(self.summary(), file=sys.stderr, flush=True)

    def summary(self) -> str:
        wall = time.perf_counter() - self.began
        done = len(self.codes)
        head = f"pzc batch: {plural(done, 'instance')} in {wall:.1f} s"
        if self.skipped:
            head += f" ({self.skipped} more already in {self.resumed})" if self.resumed else (
                f" ({self.skipped} named twice, run once)")
        order = ["solved", "counted", "unique", "several", "none", "unsat", "timeout", "error"]
        counts = ", ".join(f"{status} {self.statuses[status]}" for status in
                           sorted(self.statuses, key=lambda s: (s not in order,
                                                                order.index(s) if s in order else 0, s)))
        lines = [head]
        if counts:
            lines.append(f"  {counts}")
        for k, (seconds, name) in enumerate(sorted(self.times, reverse=True)[:SLOWEST]):
            lines.append(f"  {'slowest:' if k == 0 else '':<9}{seconds:6.2f} s  {printable(name)}")
        if done:
            lines.append(f"  CPU time of the workers {self.cpu_s:.1f} s "
                         f"({self.cpu_s / max(wall, 1e-9):.2f} s per second of wall time)")
        return "\n".join(lines)
