"""The workbench's jobs: each in a process of its own, so that Stop (or a
time limit the task could not keep) ends it at once, solvers and all.

    jobs = Jobs()
    key = jobs.start({"action": "solve", "puzzle": url, "timeout": 10})
    reply = jobs.wait(key, 5)        # None while it runs
    jobs.stop(key)                   # killed with its process group, reaped

A job's process is forked by multiprocessing's fork server, a process
started once before the web server's threads (forking the threaded server
itself could copy a lock another thread holds), with pzc already imported,
so a job starts in milliseconds.  It makes itself a process group: the
solver workers it forks (backends/worker.py) die with it.
"""

from __future__ import annotations

import itertools
import multiprocessing
import os
import signal
import threading
import time

from ...backends.worker import die_with
from . import request, work

MOST_RUNNING = 4          # jobs at once: the page runs one and reads one; a second tab
MOST_KEPT = 64            # finished replies kept until the page fetches them
STOPPED = {"status": "stopped", "line": "Stopped"}
KILL_S = 0.05             # time to kill and reap a job (measured: 5 ms, bench/serve.py)


def job_main(conn, server, given: dict):
    """A job's process: run it, send the reply, end.  ``server``: a pipe
    only the server writes to; it closes when the server dies."""
    die_with(os.getppid())          # the fork server
    os.setpgid(0, 0)                # its solver workers are killed with it
    # the fork server lives on while a job holds its fds, so the job must end
    # with the server itself, not only with its parent
    threading.Thread(target=end_with, args=(server,), daemon=True).start()
    signal.signal(signal.SIGINT, signal.SIG_IGN)      # Ctrl-C is the server's
    reply = work.run(given)
    try:
        conn.send(reply)
    except OSError:                 # stopped meanwhile, or the server is gone
        pass


def end_with(server):
    """Kill this job's process group once the server's end of ``server`` closes."""
    try:
        server.recv()
    except (EOFError, OSError):
        pass
    os.killpg(0, signal.SIGKILL)


def promised(timeout: float | None) -> float | None:
    """When a job with this limit has answered at the latest: the promise's
    margin, max(0.5 s, 10%), past it."""
    if timeout is None:
        return None
    return timeout + max(0.5, 0.1 * timeout)


def overdue_after(timeout: float | None) -> float | None:
    """When a job is killed for keeping no time limit (the task itself stops
    well before): in time to be reaped and answered within the promise."""
    if timeout is None:
        return None
    return promised(timeout) - KILL_S


class Job:
    def __init__(self, key: str, process, conn, lifeline, timeout):
        self.key = key
        self.process = process
        self.conn = conn
        self.lifeline = lifeline        # closed when the job is over (or the server dies)
        self.timeout = timeout
        self.started = time.monotonic()
        self.reply: dict | None = None
        self.done = threading.Event()

    def finish(self, reply: dict):
        if self.reply is None:
            reply.setdefault("elapsed_s", round(time.monotonic() - self.started, 3))
            reply["job"] = self.key
            self.reply = reply
        self.done.set()

    def kill(self) -> float:
        """End the process and its group at once; the seconds until it is reaped."""
        begun = time.monotonic()
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except OSError:              # not yet in a group of its own, or gone
            self.process.kill()
        self.process.join()
        return time.monotonic() - begun


class Jobs:
    """The jobs of one server, by key."""

    def __init__(self, most_running: int = MOST_RUNNING, target=None):
        """``target``: what a job's process runs (default job_main; a test's
        stand-in that keeps no limit tests the kill)."""
        self.target = target or job_main
        self.context = multiprocessing.get_context("forkserver")
        self.context.set_forkserver_preload(["pzc.tasks.serve.jobs", "pzc.tasks.serve.warm"])
        self.most_running = most_running
        self.lock = threading.Lock()
        self.jobs: dict = {}
        self.keys = (f"j{n}" for n in itertools.count(1))

    def warm_up(self):
        """Start the fork server now, before any thread: a first job then
        starts as fast as the others."""
        self.start({"action": "read"})

    def running(self) -> int:
        return sum(not j.done.is_set() for j in self.jobs.values())

    def start(self, given: dict) -> str:
        """Start a job; its key.  JobsBusy when too many run already."""
        with self.lock:
            if self.running() >= self.most_running:
                raise JobsBusy(f"{self.most_running} jobs are running already: stop one first")
            self._forget_old()
            key = next(self.keys)
            here, there = self.context.Pipe(duplex=False)
            watched, lifeline = self.context.Pipe(duplex=False)   # the job reads, the server holds
            process = self.context.Process(target=self.target, args=(there, watched, given),
                                           name=f"pzc serve job {key}")
            process.start()          # not a daemon: a job may fork its solver workers
            there.close()
            watched.close()
            job = self.jobs[key] = Job(key, process, here, lifeline, request.time_limit(given))
        threading.Thread(target=self._watch, args=(job,), daemon=True,
                         name=f"watch {key}").start()
        return key

    def _watch(self, job: Job):
        """Wait for the job's reply, or kill it when it overruns its limit."""
        overdue = overdue_after(job.timeout)
        while not job.done.is_set():
            left = None if overdue is None else overdue - (time.monotonic() - job.started)
            try:
                if job.conn.poll(0.25 if left is None else max(0.0, min(left, 0.25))):
                    job.finish(job.conn.recv())
                    job.process.join()
                elif left is not None and left <= 0:
                    job.kill()
                    job.finish({"status": "timeout", "line": work.STATUS_LINES["timeout"]})
            except (EOFError, OSError):
                job.process.join()
                job.finish({"status": "error", "line": work.STATUS_LINES["error"],
                            "error": {"message": f"the job's process ended with status "
                                                 f"{job.process.exitcode}", "line": None,
                                      "column": None, "file": None}})
        job.conn.close()
        job.lifeline.close()

    def get(self, key: str) -> Job:
        with self.lock:
            job = self.jobs.get(key)
        if job is None:
            raise NoSuchJob(f"no job {key!r} (finished jobs are kept for a while only)")
        return job

    def wait(self, key: str, seconds: float) -> dict | None:
        """The job's reply, waiting at most ``seconds``; None while it runs."""
        job = self.get(key)
        return job.reply if job.done.wait(seconds) else None

    def stop(self, key: str) -> dict:
        """End the job at once (a finished job's reply stays as it was)."""
        job = self.get(key)
        if job.done.is_set():
            return job.reply
        job.finish(dict(STOPPED))       # first: the watcher sees the pipe close next
        job.reply["freed_s"] = round(job.kill(), 4)
        return job.reply

    def _forget_old(self):
        finished = [k for k, j in self.jobs.items() if j.done.is_set()]
        for key in finished[:max(0, len(finished) - MOST_KEPT)]:
            del self.jobs[key]

    def close(self):
        """Stop every job still running."""
        for key in list(self.jobs):
            self.stop(key)


class JobsBusy(Exception):
    pass


class NoSuchJob(Exception):
    pass
