"""Batch runs: every instance of many files, spread over worker processes on
this machine or over a Dask cluster; results yielded as they finish.

A task is a plain dict, the same for both (it travels to a cluster worker):

    {"spec": the SPEC argument (SPEC left out: the name of the built-in spec
     of the instance's puzz.link type), "spec_source": (text, path) or None,
     "file": the INSTANCE argument, "read": the file it reads (FILE of FILE#KEY;
     None for a URL), "index": the instance's place among the argument's,
     "name": its name (path#k, path#KEY), "task": solve | count | unique,
     "options": api keyword arguments (backend, solver, connectivity,
     solver_cmd, timeout, max_steps or limit)}

and run_task(task, text) runs it in whichever process gets it: the spec is
loaded and checked once per process, an instance file read once per process
(_SPECS, _FILES), then the instance is solved as `pzc solve` would (its own
time limit, its own solver worker under --timeout: backends/worker.py).  The
reply is the instance's JSON object (Result.to_json(), as `pzc solve --format
json` prints it) with its exit code, wall and CPU seconds.

Locally (run_local) the workers are forked from this process after it has
read the spec and the files, so their caches start full; they are killed
when this process dies (backends/worker.die_with).  On a cluster
(run_dask) the spec's text and each instance file's text go with the tasks
(a file's text once per worker, as a task of its own that the scheduler can
run again), so the workers need pzc installed but no shared filesystem.
"""

from __future__ import annotations

import gc
import hashlib
import json
import multiprocessing
import os
import re
import resource
import signal
import sys
import time
import uuid
from collections import deque
from multiprocessing.connection import wait

from ..backends.choice import engine_for
from ..formats.reading import instance_file, load_instances
from ..runtime.errors import (EXIT_OK, EXIT_TIMEOUT, EXIT_UNSAT, EXIT_USAGE, EXIT_VERIFY,
                              PzcError)
from ..runtime.progress import no_progress
from .results import CountResult, Result, UniqueResult
from .solving import count, solve, unique
from .specs import SpecChoice, builtin_source, load_spec, spec_source

TASKS = ("solve", "count", "unique")
RESULT_KINDS = {"solve": Result, "count": CountResult, "unique": UniqueResult}

_SPECS: dict = {}        # (spec argument, text digest) -> Spec, in this process
_FILES: dict = {}        # (spec key, INSTANCE argument, text digest) -> [Instance | None]


def digest(text) -> str | None:
    if text is None:
        return None
    data = text.encode("utf-8") if isinstance(text, str) else text
    return hashlib.sha1(data).hexdigest()


def _spec_key(task) -> tuple:
    source = task.get("spec_source")
    return task["spec"], digest(source[0]) if source is not None else None


def spec_of(task):
    """The task's spec, loaded and checked once in this process."""
    key = _spec_key(task)
    spec = _SPECS.get(key)
    if spec is None:
        spec = _SPECS[key] = load_spec(task["spec"], task.get("spec_source"))
    return spec


def instances_of(spec, task, text=None) -> list:
    """The instances of the task's INSTANCE argument, read once in this
    process (from ``text`` when given, else from the file)."""
    key = (_spec_key(task), task["file"], digest(text))
    found = _FILES.get(key)
    if found is None:
        found = _FILES[key] = load_instances(spec, task["file"], text=text,
                                                 read=task.get("read"))
    return found


def error_result(task_kind: str, name: str, spec_name: str, error: PzcError) -> dict:
    return RESULT_KINDS[task_kind](name, spec_name, "error", error=error,
                                   exit_code=error.exit_code).to_json()


def _cpu_seconds() -> float:
    """CPU time of this process and of its children that were waited for
    (solver workers, portfolio members)."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def run_task(task: dict, text=None) -> dict:
    """Run one task here: {"name", "result" (the JSON object), "code",
    "wall_s", "cpu_s"}.  Never raises: a failure is the instance's error."""
    wall, cpu = time.perf_counter(), _cpu_seconds()
    kind, name, spec_name = task["task"], task["name"], task["spec"]
    try:
        spec = spec_of(task)
        spec_name = spec.name
        found = instances_of(spec, task, text)
        k = task["index"]
        inst = found[k] if k < len(found) else None
        if inst is None or inst.name != name:        # asked again (a retry): read afresh
            again = load_instances(spec, task["file"], text=text, read=task.get("read"))
            inst = again[k] if k < len(again) else None
        if k < len(found):
            found[k] = None      # done with: what it caches (its board's edges) goes with it
        if inst is None or inst.name != name:
            raise PzcError(f"{task['file']} changed while the batch ran: it no longer holds "
                           f"{name} as instance {k + 1}")
        options = dict(task["options"])
        run = {"solve": solve, "count": count, "unique": unique}[kind]
        result = run(spec, inst, **options)
        out, code = result.to_json(data=task.get("data", False)), result.exit_code
        del result, inst
    except PzcError as e:
        out, code = error_result(kind, name, spec_name, e), e.exit_code
    except MemoryError:
        e = PzcError("out of memory (a smaller instance, or a larger ulimit -v, may fit)")
        out, code = error_result(kind, name, spec_name, e), e.exit_code
    except Exception as e:           # a bug: said plainly, the batch goes on
        err = PzcError(f"internal error (a bug in pzc): {type(e).__name__}: {e}",
                       exit_code=EXIT_VERIFY)
        out, code = error_result(kind, name, spec_name, err), err.exit_code
    gc.collect()
    return {"name": name, "result": out, "code": code,
            "wall_s": time.perf_counter() - wall, "cpu_s": _cpu_seconds() - cpu}


def lost_reply(task: dict, why: str) -> dict:
    """The reply for a task whose worker ended without answering."""
    e = PzcError(f"{task['name']}: {why}")
    return {"name": task["name"], "result": error_result(task["task"], task["name"],
                                                         task["spec"], e),
            "code": e.exit_code, "wall_s": 0.0, "cpu_s": 0.0}


# ---------------------------------------------------------------- this machine

def _serve(conn, parent: int):
    """A local worker: tasks in, replies out, until the parent closes the pipe."""
    from ..backends.worker import die_with
    die_with(parent)                 # a killed pzc batch leaves no worker running
    os.setpgid(0, 0)                 # its solver processes are killed with it (_Local.close)
    signal.signal(signal.SIGINT, signal.SIG_IGN)     # Ctrl-C is the parent's
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    gc.freeze()                      # the spec and the files read before the fork
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):
            break
        conn.send(run_task(task))
    os._exit(0)


class _Local:
    def __init__(self):
        self.ctx = multiprocessing.get_context("fork")
        self.busy = {}               # connection -> (process, task)
        self.idle = []               # (connection, process)

    def start(self):
        here, there = self.ctx.Pipe()
        proc = self.ctx.Process(target=_serve, args=(there, os.getpid()), daemon=False,
                                name="pzc batch worker")
        proc.start()
        there.close()
        self.idle.append((here, proc))

    def give(self, task):
        conn, proc = self.idle.pop()
        try:
            conn.send(task)
        except (BrokenPipeError, OSError):
            pass                     # dead already: its EOF comes in wait()
        self.busy[conn] = (proc, task)

    def close(self):
        every = [(c, p) for c, (p, _) in self.busy.items()] + self.idle
        for conn, proc in every:
            if proc.is_alive():
                try:                 # its solver processes too, at once: none is left
                    os.killpg(proc.pid, signal.SIGKILL)     # to find its parent gone
                except OSError:      # not yet in a group of its own
                    proc.kill()
            conn.close()
        for conn, proc in every:
            proc.join()
        self.busy.clear()
        self.idle.clear()


def run_local(tasks: list, workers: int, started=None):
    """Replies of ``tasks`` run on ``workers`` forked processes, in the order
    they finish.  A worker that dies (killed, out of memory) costs only its
    instance, reported as an error, and is replaced.  ``started()`` is
    called once the workers are forked (a thread started before a fork
    could leave a lock held in the copy: the progress bar's, say)."""
    pending = deque(tasks)
    pool = _Local()
    try:
        for _ in range(min(workers, len(pending))):
            pool.start()
        if started is not None:
            started()
        while pool.idle and pending:
            pool.give(pending.popleft())
        while pool.busy:
            for conn in wait(list(pool.busy)):
                proc, task = pool.busy.pop(conn)
                try:
                    reply = conn.recv()
                    pool.idle.append((conn, proc))
                except (EOFError, OSError):
                    conn.close()
                    proc.join()
                    code = proc.exitcode
                    how = f"signal {-code}" if code is not None and code < 0 else f"status {code}"
                    reply = lost_reply(task, f"its worker process ended with {how}")
                    if pending:
                        pool.start()
                if pending:
                    pool.give(pending.popleft())
                yield reply
    finally:
        pool.close()


# ---------------------------------------------------------------- a Dask cluster

SCHEDULER = re.compile(r"^(?:(tcp|tls|ucx|inproc)://)?\[?[\w.:-]*\w\]?:\d{1,5}/?$")
CONNECT_S = 10.0             # a scheduler that does not answer by then is reported


def check_scheduler(address: str) -> None:
    if address != "local" and not SCHEDULER.match(address):
        raise PzcError(f"--scheduler {address}: expected tcp://HOST:PORT (a Dask scheduler) "
                       f"or local")


def _dask_task(task: dict, text=None) -> dict:
    """run_task on a Dask worker.  Dask's worker processes are daemons, which
    multiprocessing forbids to start processes; pzc's solver workers and
    portfolio members are processes, killed by pzc itself."""
    proc = multiprocessing.current_process()
    if proc.daemon:
        # the public setter: it refuses only a process object that has
        # started one of its own (this one was started by Dask's nanny)
        proc.daemon = False
    return run_task(task, text)


def _text(text):
    return text


CLUSTER_EXTRA = ("--scheduler runs on a Dask cluster, and Dask's distributed package is "
                 "not installed: install pzc's cluster extra, pip install 'pzc[cluster]' "
                 "(in a checkout set up by make: .venv/bin/pip install -e '.[cluster]')")


def need_cluster_extra() -> None:
    """A plain error, before any work, when the cluster extra is missing."""
    try:
        import dask  # noqa: F401
        import distributed  # noqa: F401
    except ImportError:
        raise PzcError(CLUSTER_EXTRA) from None


def connect(address: str, workers: int):
    """(client, cluster or None) for --scheduler: a LocalCluster of ``workers``
    processes for 'local', else the scheduler at ``address``."""
    check_scheduler(address)
    need_cluster_extra()
    import logging

    import dask
    from distributed import Client, LocalCluster
    logging.getLogger("distributed").setLevel(logging.ERROR)
    cluster = None
    try:
        if address == "local":
            with dask.config.set({"distributed.worker.daemon": False,
                                  "logging.distributed": "error"}):
                cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                       dashboard_address=None)
            return Client(cluster), cluster
        return Client(address, timeout=CONNECT_S), None
    except (OSError, TimeoutError, ValueError) as e:
        if cluster is not None:
            cluster.close()
        raise PzcError(f"--scheduler {address}: cannot reach the Dask scheduler there "
                       f"({type(e).__name__}: {e})") from None


def run_dask(tasks: list, texts: dict, address: str, workers: int, started=None):
    """Replies of ``tasks`` run on a Dask cluster, each once, in the order they
    finish.  ``texts``: instance file -> its contents (sent once per worker).
    A worker that dies has its tasks run again elsewhere by Dask; a task
    that killed workers again and again is reported as an error.
    ``started()`` is called once the cluster is reached."""
    client, cluster = connect(address, workers)
    from distributed import as_completed
    if started is not None:
        started()
    futures = []
    try:
        held = {path: client.submit(_text, text, key=f"pzc-file-{digest(text)}", pure=False)
                for path, text in texts.items()}
        by_key = {}
        run = uuid.uuid4().hex[:8]       # two batches on one cluster keep apart
        for k, task in enumerate(tasks):
            text = held.get(task["read"])
            fut = client.submit(_dask_task, task, text, pure=False, retries=1,
                                key=f"pzc-{run}-{k}")
            by_key[fut.key] = task
            futures.append(fut)
        seen = set()
        for fut in as_completed(futures):
            task = by_key[fut.key]
            if task["name"] in seen:
                continue
            seen.add(task["name"])
            try:
                reply = fut.result()
            except Exception as e:          # KilledWorker, a lost task
                reply = lost_reply(task, f"the cluster could not run it "
                                         f"({type(e).__name__}: {e})")
            fut.release()
            yield reply
    finally:
        try:
            client.cancel(futures)
            client.close()
        finally:
            if cluster is not None:
                cluster.close()



# ---------------------------------------------------------------- the output file

_EXIT_OF = {"solved": EXIT_OK, "counted": EXIT_OK, "unique": EXIT_OK,
            "unsat": EXIT_UNSAT, "none": EXIT_UNSAT, "several": EXIT_UNSAT,
            "timeout": EXIT_TIMEOUT}


def exit_code_of(result: dict) -> int:
    """The exit code a result line stands for (as `pzc solve` gives it)."""
    if result.get("verified") is False:
        return EXIT_VERIFY
    message = (result.get("error") or {}).get("message", "")
    if result.get("status") == "error":
        return EXIT_VERIFY if "a bug in pzc" in message else EXIT_USAGE
    return _EXIT_OF.get(result.get("status"), EXIT_USAGE)


def resume(path: str) -> tuple:
    """(names, exit codes) of the results already in the JSON-lines file
    ``path`` (none when it does not exist).  A last line cut short (the
    batch was killed while writing it) is cut off the file, so that its
    instance runs again; any other line that is not a result is an error at
    its line."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        return set(), []
    except OSError as e:
        raise PzcError(f"cannot read {path}: {e.strerror}") from None
    end = data.rfind(b"\n") + 1
    if end < len(data):
        try:
            with open(path, "r+b") as f:
                f.truncate(end)
        except OSError as e:
            raise PzcError(f"cannot repair {path} (its last line is cut short): "
                           f"{e.strerror}") from None
    names, codes = set(), []
    for number, line in enumerate(data[:end].split(b"\n")[:-1], 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except ValueError as e:
            shown = line.decode("utf-8", "replace")
            raise PzcError(f"{path} is not the JSON lines of a batch: {getattr(e, 'msg', e)}",
                           path, number,
                           getattr(e, "colno", 1), shown) from None
        if not isinstance(obj, dict) or not isinstance(obj.get("instance"), str):
            raise PzcError(f"{path} is not the JSON lines of a batch: this line is not a "
                           f"result with an \"instance\"", path, number, 1,
                           line.decode("utf-8", "replace"))
        if obj["instance"] not in names:
            names.add(obj["instance"])
            codes.append(exit_code_of(obj))
    return names, codes


class Output:
    """Result lines written as they come, each whole in one write and on its
    way to the disk before the next (a killed batch loses no line written;
    at most the one being written is cut short, and resume repairs that)."""

    def __init__(self, path: str | None, append: bool = False):
        self.path = path
        if path is None or path == "-":
            self.fd, self.own = sys.stdout.fileno(), False
            sys.stdout.flush()
            os.write(self.fd, b"")        # a closed standard output fails here, before the work
            return
        try:
            self.fd = os.open(path, os.O_WRONLY | os.O_CREAT
                              | (os.O_APPEND if append else os.O_TRUNC), 0o666)
        except OSError as e:
            raise PzcError(f"cannot write {path}: {e.strerror}") from None
        self.own = True

    def write(self, result: dict) -> None:
        data = (json.dumps(result) + "\n").encode("utf-8")
        while data:
            done = os.write(self.fd, data)
            data = data[done:]

    def close(self) -> None:
        if self.own:
            os.close(self.fd)


# ---------------------------------------------------------------- the entry point

def batch(spec_name_or_path: str, paths, workers: int | None = None, task: str = "solve",
          timeout: float | None = None, scheduler: str | None = None, done=frozenset(),
          progress=no_progress, data: bool = False, **options):
    """Run ``task`` (solve, count or unique) on every instance of every file
    in ``paths``, spread over ``workers`` processes (default: all cores), and
    yield each instance's result as it finishes: the JSON object `pzc solve
    --format json` prints (count and unique: theirs), in the order they
    finish.  Instances named in ``done`` are skipped; an instance named twice
    runs once.  A file that cannot be read is one error result, named by its
    path.  ``scheduler``: a Dask scheduler's address (tcp://HOST:PORT) to run
    on that cluster instead, or "local" for a LocalCluster of ``workers``
    processes (run_dask).  ``timeout``: seconds per instance, counted from
    when a worker starts it.  ``options``: those of solve (backend, solver,
    connectivity, solver_cmd, max_steps), count (limit) or unique.
    ``progress`` is called as ``progress("batch", total=, skipped=)`` once
    the files are read and the workers started (total: the instances to run
    now; a callback may start threads from then on), then
    ``progress("finished", name=, status=, code=, wall_s=, cpu_s=)`` before
    each result is yielded (code: its exit code; cpu_s: the worker's CPU
    seconds on it, its solver processes included).  ``data``: each result
    carries its answer as data too (``to_json(data=True)``, docs/api.md)."""
    progress = progress or no_progress
    if task not in TASKS:
        raise PzcError(f"the batch task is solve, count or unique, not {task!r}")
    if workers is not None and workers < 1:
        raise PzcError(f"a batch needs at least one worker, not {workers}")
    if scheduler is not None:
        check_scheduler(scheduler)
        need_cluster_extra()
    workers = workers or len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") \
        else workers or os.cpu_count() or 1
    specs = SpecChoice(spec_of({"spec": spec_name_or_path})
                       if spec_name_or_path is not None else None)
    options = dict(options, timeout=timeout)
    sources = {}                 # the spec name of a task -> its spec_source (a cluster's)

    def accept(spec) -> str:
        """The name tasks load ``spec`` by, its engine options checked once
        (bad ones stop the whole batch)."""
        name = spec_name_or_path if specs.spec is not None else specs.builtin_name(spec)
        if name not in sources:
            engine_for(spec, options.get("backend", "sat"), options.get("solver"),
                       options.get("connectivity"), options.get("solver_cmd"))
            sources[name] = None if scheduler is None else (
                spec_source(name) if specs.spec is not None else builtin_source(name))
        return name

    if specs.spec is not None:
        accept(specs.spec)
    tasks, texts, seen, failed, skipped = [], {}, set(done), [], 0
    for path in paths:
        read = instance_file(path)
        text = None
        if scheduler is not None and read is not None and read != "-":
            try:
                with open(read, "rb") as f:
                    text = f.read()
            except OSError:
                text = None          # load_instances says why
        try:
            found = _read_once(specs, spec_name_or_path, path, text)
        except PzcError as e:
            name = "<stdin>" if path == "-" else path
            if name in seen:
                skipped += 1
            else:
                seen.add(name)
                failed.append((name, specs.spec, e))
            continue
        if scheduler is not None and read is not None:       # sent to the workers
            texts[read] = text if text is not None else _stdin_text(found)
        for k, (spec, inst) in enumerate(found):
            if inst.name in seen:
                skipped += inst.name in done
                continue
            seen.add(inst.name)
            if spec is None:                 # a URL line no spec reads
                failed.append((inst.name, None, inst.unreadable))
                continue
            name = accept(spec)
            tasks.append(dict(spec=name, file=path, spec_source=sources[name], read=read,
                              index=k, name=inst.name, task=task, options=options, data=data))
    def started():
        progress("batch", total=len(tasks) + len(failed), skipped=skipped)
        for name, _, e in failed:
            progress("finished", name=name, status="error", code=e.exit_code, wall_s=0.0,
                     cpu_s=0.0)

    if not tasks:
        started()
        replies = []
    elif scheduler is None:
        replies = run_local(tasks, min(workers, len(tasks)), started)
    else:
        replies = run_dask(tasks, texts, scheduler, workers, started)
    for name, spec, e in failed:
        yield error_result(task, name, spec.name if spec is not None else None, e)
    for reply in replies:
        result = reply["result"]
        progress("finished", name=reply["name"], status=result["status"],
                 code=reply["code"], wall_s=reply["wall_s"], cpu_s=reply["cpu_s"])
        yield result


def _read_once(specs: SpecChoice, spec_name_or_path, path: str, text) -> list:
    """(spec, instance) of the INSTANCE argument ``path``, kept for this
    process (and the workers forked from it) as instances_of reads them:
    SPEC left out, under the name of each instance's spec."""
    if specs.spec is not None:
        stub = {"spec": spec_name_or_path, "file": path}
        return [(specs.spec, inst) for inst in instances_of(specs.spec, stub, text)]
    found = specs.read(path, text)
    for spec in {id(s): s for s, _ in found if s is not None}.values():
        key = (specs.builtin_name(spec), None)
        _SPECS.setdefault(key, spec)
        _FILES[(key, path, digest(text))] = [inst if s is spec else None for s, inst in found]
    return found


def _stdin_text(found) -> str:
    """The text of standard input, read into these instances."""
    source = getattr(found[0][1], "source", None) if found else None
    return getattr(source, "text", "")
