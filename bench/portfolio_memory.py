"""Memory of one solve with its worker processes: the portfolio's members
encoding after the fork, against single configurations and against encoding
every CNF in the parent first (docs/benchmarks.md, "Portfolio").

    python bench/portfolio_memory.py MODE SPEC INSTANCE [TIMEOUT]

MODE: lazy or eager (one configuration), portfolio (the default pair, both
started at once), parent-encodes (both CNFs encoded here, one after the
other, no solver).  A thread samples every 0.1 s this process's and its
children's resident (RSS) and proportional (PSS: shared pages split among
the processes sharing them) set sizes; the peaks are printed as JSON.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time


def _field(pid, path, name) -> int:
    try:
        with open(f"/proc/{pid}/{path}") as f:
            for line in f:
                if line.startswith(name):
                    return int(line.split()[1]) >> 10     # MB
    except OSError:
        pass
    return 0


def _children() -> list:
    me, out = os.getpid(), []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    state, ppid = f.read().rpartition(")")[2].split()[:2]
            except OSError:
                continue
            if int(ppid) == me and state not in "ZX":
                out.append(int(entry))
    return out


def main(argv):
    mode, spec_name, path = argv[:3]
    limit = float(argv[3]) if len(argv) > 3 else 15.0
    from pzc import api
    from pzc.backends import portfolio
    from pzc.encoder import cnf as cnf_stage
    from pzc.encoder.ground import ground
    peak = {"parent_rss_mb": 0, "largest_child_rss_mb": 0, "all_pss_mb": 0}
    done = threading.Event()

    def sample():
        while not done.is_set():
            kids = _children()
            me = os.getpid()
            peak["parent_rss_mb"] = max(peak["parent_rss_mb"], _field(me, "status", "VmRSS:"))
            peak["largest_child_rss_mb"] = max([peak["largest_child_rss_mb"]] +
                                               [_field(k, "status", "VmRSS:") for k in kids])
            peak["all_pss_mb"] = max(peak["all_pss_mb"], sum(_field(p, "smaps_rollup", "Pss:")
                                                             for p in [me] + kids))
            time.sleep(0.1)

    spec = api.load_spec(spec_name)
    inst, = api.load_instances(spec, path)
    threading.Thread(target=sample, daemon=True).start()
    start = time.perf_counter()
    out = {"mode": mode}
    if mode == "parent-encodes":
        g = ground(spec, inst)
        for conn in ("lazy", "eager"):
            t = time.perf_counter()
            cnf = cnf_stage.encode(g.model if conn == "lazy" else ground(spec, inst).model, conn)
            out[f"{conn}_encode_s"] = round(time.perf_counter() - t, 2)
            out[f"{conn}_clauses"] = len(cnf.clauses)
        time.sleep(0.5)
    else:
        if mode == "portfolio":
            portfolio.STAGGER_S = 0.0
            options = dict(backend="portfolio", solver="lazy,eager")
        else:
            options = dict(connectivity=mode)
        r = api.solve(spec, inst, timeout=limit, **options)
        out.update(status=r.status, compile_s=r.stats.get("compile_s"))
    time.sleep(0.2)
    done.set()
    out.update(wall_s=round(time.perf_counter() - start, 2), **peak)
    print(json.dumps(out))


if __name__ == "__main__":
    main(sys.argv[1:])
