"""--portfolio: several solver configurations in forked processes, the first
answer wins (backends/portfolio.py).

Answers are verified and equal to each member's own answer on the built-in
specs' examples; counts equal tests/brute.py's brute force; unsat is
found; under a time limit the call ends within pzc's promise (max(0.5 s,
10%)) and no member process is left (this process's children are read from
/proc); bad member lists exit 2 with a plain message naming the part.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

import brute
from brute import boards, count, instance
from conftest import EXAMPLES
from loading import spec
from outcomes import no_traceback
from pzc import api
from pzc.runtime import clock
from pzc.backends import portfolio
from pzc.backends.portfolio import Member, looks_like_members, normalize, parse
from pzc.runtime.errors import PzcError
from unsolvable import PIGEONS, UNSAT4, pigeon_block

EXAMPLE_CASES = [("sudoku", "sudoku/grid4.txt"), ("hexiom", "hexiom/small.txt"),
                 ("nurikabe", "nurikabe/small.txt"), ("numberlink", "numberlink/small.txt"),
                 ("slitherlink", "slitherlink/small.txt"), ("masyu", "masyu/small.txt"),
                 ("akari", "akari/light7.txt"), ("hitori", "hitori/six.txt")]
PORTFOLIOS = ["default", "glucose4:lazy,cadical195:eager", "smt,minisat22:eager",
              "cadical195:lazy", "asp,glucose4"]


def children() -> dict:
    """pid -> state letter of this process's children (from /proc)."""
    me = os.getpid()
    out = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:                   # gone meanwhile
            continue
        state, ppid = stat.rpartition(")")[2].split()[:2]
        if int(ppid) == me:
            out[int(entry.name)] = state
    return out


def live_children_since(before, grace=5.0) -> set:
    """Children that were not there before and are still alive after
    ``grace`` seconds (a killed process takes a moment to free its memory;
    zombies are dead, waiting to be reaped)."""
    end = time.monotonic() + grace
    while True:
        live = {pid: state for pid, state in children().items()
                if pid not in before and state not in "ZX"}
        if not live or time.monotonic() > end:
            return set(live)
        time.sleep(0.02)


def load(spec_name, relative):
    s = spec(spec_name)
    inst, = api.load_instances(s, str(EXAMPLES / relative))
    return s, inst


@pytest.mark.parametrize("members", PORTFOLIOS)
@pytest.mark.parametrize("spec_name,relative", EXAMPLE_CASES, ids=[c[0] for c in EXAMPLE_CASES])
def test_answers_are_verified_and_equal_to_a_single_configuration(spec_name, relative, members):
    s, inst = load(spec_name, relative)
    single = api.solve(s, inst)
    assert single.status == "solved" and single.verified
    before = children()
    got = api.solve(s, inst, backend="portfolio", solver=members, timeout=60)
    assert got.status == "solved" and got.verified, got.error
    assert got.grid == single.grid and got.moves == single.moves
    st = got.stats
    assert st["backend"] == "portfolio"
    spec_solver = s.solver.name if s.solver is not None else None
    own = s.portfolio.members if members == "default" and s.portfolio is not None else members
    listed = normalize(own, spec_solver).split(",")
    if spec_name in ("sudoku", "hexiom", "akari"):        # no connected(...): lazy = eager
        first = {}
        for m in listed:
            first.setdefault(m.split(":")[0], m)
        listed = list(first.values())
    assert st["members"] == listed
    assert st["solver"] in st["members"]          # the member that answered
    assert st["variables"] > 0 and st["solve_s"] >= 0 and st["portfolio_s"] > 0
    clock.release_left_behind()                    # the losers, killed, are reaped
    assert live_children_since(before) == set()


def test_every_member_alone_gives_the_same_answer():
    s, inst = load("nurikabe", "nurikabe/small.txt")
    grids = set()
    for member in parse("cadical195:lazy,glucose4:eager,smt"):
        alone = api.solve(s, inst, backend="portfolio", solver=str(member))
        assert alone.verified and alone.stats["solver"] == str(member)
        grids.add(tuple(alone.grid))
    assert len(grids) == 1


@pytest.mark.parametrize("members", ["default", "smt,glucose4:eager"])
def test_unsat_is_found(members):
    s = spec("sudoku")
    inst = instance(s, UNSAT4)
    got = api.solve(s, inst, backend="portfolio", solver=members, timeout=60)
    assert (got.status, got.exit_code) == ("unsat", api.EXIT_UNSAT)
    assert got.stats["solver"] in got.stats["members"]


def test_unsat_from_the_command_line(write, run_pzc):
    write("pigeons.pz", PIGEONS)
    write("few.txt", pigeon_block(3, 4))              # four pigeons, three holes
    run = run_pzc("solve", "pigeons.pz", "few.txt", "--portfolio", "--format", "json")
    no_traceback(run)
    assert run.returncode == 1
    out = json.loads(run.stdout)
    assert out["status"] == "unsat" and out["stats"]["backend"] == "portfolio"


COUNT_CASES = [c for c in brute.CASES if c[0] in (
    "sudoku-empty", "numberlink-two-ways", "nurikabe-3x3-two", "nurikabe-split-sea",
    "slitherlink-two-loops", "slitherlink-3x3", "hexiom3-0", "puzlogic-unsat")]


@pytest.mark.parametrize("case_id,spec_name,text", COUNT_CASES, ids=[c[0] for c in COUNT_CASES])
def test_count_goes_on_with_the_first_member_and_is_exact(case_id, spec_name, text):
    want = brute.reference(case_id, spec_name, text)
    before = children()
    res = count(spec_name, text, case_id, backend="portfolio",
                solver="glucose4:lazy,cadical195:eager", timeout=120)
    assert res.complete and boards(spec_name, res) == want
    assert res.stats["solver"] in ("glucose4:lazy", "cadical195:eager")
    clock.release_left_behind()
    assert live_children_since(before) == set()


def test_count_cases_are_there():
    assert len(COUNT_CASES) == 8


def test_unique_with_a_portfolio(write, run_pzc):
    write("g.txt", "4 4\nA..B\n.BA.\n.CC.\n....\n")      # two answers
    run = run_pzc("unique", "numberlink", "g.txt", "--portfolio", "--format", "json")
    no_traceback(run)
    out = json.loads(run.stdout)
    assert (run.returncode, out["status"]) == (1, "several")
    assert out["stats"]["backend"] == "portfolio"


@pytest.mark.slow
def test_the_time_limit_holds_and_no_member_is_left():
    s = api.load_spec(str(_write_tmp("pigeons.pz", PIGEONS)))
    inst = instance(s, pigeon_block(20, 21))          # pigeonhole: no member proves it soon
    before = children()
    for limit in (1.0, 2.0):
        start = time.perf_counter()
        got = api.solve(s, inst, backend="portfolio", solver="cadical195,glucose4", timeout=limit)
        elapsed = time.perf_counter() - start
        assert (got.status, got.exit_code) == ("timeout", api.EXIT_TIMEOUT)
        assert elapsed <= limit + max(0.5, limit / 10), elapsed
        assert got.stats["backend"] == "portfolio" and got.stats["variables"] is None
        assert live_children_since(before) == set()     # killed at the deadline
        clock.release_left_behind()
        assert set(children()) - set(before) == set()    # and reaped


@pytest.mark.slow
def test_a_count_stopped_by_the_time_limit_leaves_no_member():
    before = children()
    res = api.count(spec("sudoku"), instance(spec("sudoku"), "." * 81 + "\n"),
                    backend="portfolio", solver="cadical195,minisat22", timeout=1.0)
    assert res.status == "timeout" and res.count > 0 and not res.complete
    clock.release_left_behind()
    assert set(children()) - set(before) == set()


def _write_tmp(name, text) -> Path:
    path = Path(os.environ.get("TMPDIR", "/tmp")) / f"pzc-test-portfolio-{os.getpid()}-{name}"
    path.write_text(text)
    return path


@pytest.mark.slow
def test_the_command_line_timeout(write, run_pzc):
    write("pigeons.pz", PIGEONS)
    write("hard.txt", pigeon_block(20, 21))
    run = run_pzc("solve", "pigeons.pz", "hard.txt", "--portfolio=cadical195,glucose4",
                  "--timeout", "1", "--stats", timeout=60)
    no_traceback(run)
    assert run.returncode == 3
    assert run.stdout.splitlines()[:2] == [
        "hard.txt: time limit reached",
        run.stdout.splitlines()[1]]
    assert run.stdout.splitlines()[1].startswith(
        "  portfolio of cadical195:lazy, glucose4:lazy: no member answered")


@pytest.mark.parametrize("value,message", [
    ("glucose5:lazy", "--portfolio: in 'glucose5:lazy', 'glucose5' is not a backend (sat, smt, asp), "
                      "a connectivity mode (lazy, eager) or a solver name"),
    ("glucose4,cadical195:lazzy", "--portfolio: in the member 'cadical195:lazzy', 'lazzy' is not "
                                  "a backend"),
    ("glucose4,,cadical195", "--portfolio 'glucose4,,cadical195': an empty member"),
    ("lazy:eager", "--portfolio: the member 'lazy:eager' names two connectivity modes"),
    ("glucose4:cadical195", "--portfolio: the member 'glucose4:cadical195' names two solvers"),
    ("glucose4:smt", "--portfolio: in the member 'glucose4:smt', 'glucose4' is not a solver of "
                     "the smt backend"),
    ("smt:lazy", "--portfolio: the member 'smt:lazy': the smt backend encodes connectivity "
                 "eagerly"),
    ("g4,glucose4:lazy", "--portfolio: the members 'g4' and 'glucose4:lazy' are the same "
                         "configuration (glucose4:lazy)"),
])
def test_bad_member_lists_exit_2_with_a_plain_message(write, run_pzc, value, message):
    write("g.txt", "4..1\n...3\n3..4\n1.3.\n")
    run = run_pzc("solve", "sudoku", "g.txt", f"--portfolio={value}")
    no_traceback(run)
    assert (run.returncode, run.stdout) == (2, "")
    assert run.stderr.startswith("pzc: error: " + message), run.stderr
    with pytest.raises(PzcError):
        parse(value)


@pytest.mark.slow
def test_portfolio_alone_before_the_spec_and_with_other_flags(write, run_pzc):
    write("g.txt", "4..1\n...3\n3..4\n1.3.\n")
    run = run_pzc("solve", "--portfolio", "sudoku", "g.txt", "--format", "json")
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["stats"]["members"] == ["cadical195:lazy", "asp"]
    run = run_pzc("solve", "--portfolio", "masyu", str(EXAMPLES / "masyu" / "small.txt"),
                  "--format", "json")
    # the spec's own solver (Masyu's asks for glucose4) beside clingo
    assert json.loads(run.stdout)["stats"]["members"] == ["glucose4:lazy", "asp"]
    run = run_pzc("solve", "--portfolio", "nurikabe", str(EXAMPLES / "nurikabe" / "small.txt"),
                  "--format", "json")
    # Nurikabe's own portfolio line
    assert json.loads(run.stdout)["stats"]["members"] == ["asp", "glucose4:lazy"]
    # Sudoku has no connected(...): lazy and eager would be the same member, run once
    run = run_pzc("solve", "--portfolio", "lazy,eager", "sudoku", "g.txt", "--format", "json")
    assert json.loads(run.stdout)["stats"]["members"] == ["cadical195:lazy"]
    run = run_pzc("solve", "--portfolio", "glucose4,smt", "sudoku", "g.txt", "--format", "json")
    assert json.loads(run.stdout)["stats"]["members"] == ["glucose4:lazy", "smt"]
    for flags in (["--solver", "glucose4"], ["--backend", "smt"], ["--connectivity", "eager"]):
        run = run_pzc("solve", "sudoku", "g.txt", "--portfolio", *flags)
        no_traceback(run)
        assert run.returncode == 2 and "leave out " + flags[0] in run.stderr
    run = run_pzc("solve", "sliding", str(EXAMPLES / "sliding" / "three.txt"), "--portfolio")
    assert run.returncode == 2 and "leave out --portfolio" in run.stderr


def test_members_are_read_in_any_order_with_defaults_filled_in():
    assert normalize("default") == "cadical195:lazy,asp"
    assert normalize(None, "glucose4") == "glucose4:lazy,asp"
    assert normalize("eager:g4, lazy ,sat:eager:cd19,z3") == \
        "glucose4:eager,cadical195:lazy,cadical195:eager,smt"
    assert normalize("asp,crafty,asp:trendy") == "asp,asp:crafty,asp:trendy"
    with pytest.raises(PzcError, match="the same configuration"):
        parse("smt,z3")
    assert normalize("lazy,eager", "glucose4") == "glucose4:lazy,glucose4:eager"
    assert str(Member("sat", "minisat22", "eager")) == "minisat22:eager"
    assert looks_like_members("glucose4:lazy") and looks_like_members("smt")
    assert not looks_like_members("nurikabe") and not looks_like_members("puzzles.txt")
    assert not looks_like_members("https://puzz.link/p?nurikabe/5/5/g5k2o1k3g")


def test_help_names_the_default_pair(run_pzc):
    run = run_pzc("solve", "--help")
    help_text = " ".join(run.stdout.split())
    assert normalize("default") == "cadical195:lazy,asp"
    assert "alone: the spec's solver with lazy connectivity beside clingo (asp)" in help_text


def test_the_stats_line_names_the_member_that_answered(run_pzc):
    run = run_pzc("solve", "numberlink", str(EXAMPLES / "numberlink" / "small.txt"),
                  "--portfolio", "--stats")
    assert run.returncode == 0, run.stderr
    line = run.stdout.splitlines()[1]
    assert line.startswith("  portfolio of glucose4:lazy, asp: ")
    assert " answered first: " in line and " variables, " in line


def test_a_portfolio_left_with_one_member_counts_as_that_member_alone():
    """Without connected(...), lazy and eager members are one: it runs alone
    (in process, as its backend would), and counts exactly."""
    case = next(c for c in brute.CASES if c[0] == "sudoku-empty")
    res = count(case[1], case[2], case[0], backend="portfolio", solver="lazy,eager")
    assert res.complete and boards(case[1], res) == brute.reference(*case)
    assert res.stats["members"] == ["cadical195:lazy"] and res.stats["solver"] == "cadical195:lazy"


@pytest.mark.parametrize("spec_name,relative", EXAMPLE_CASES[2:6], ids=[c[0] for c in EXAMPLE_CASES[2:6]])
def test_members_started_together_race_to_the_same_answer(spec_name, relative, monkeypatch):
    """With no stagger every member is forked at once; whichever answers,
    the answer is verified and the same."""
    monkeypatch.setattr(portfolio, "STAGGER_S", 0.0)
    s, inst = load(spec_name, relative)
    single = api.solve(s, inst)
    winners = set()
    for _ in range(3):
        got = api.solve(s, inst, backend="portfolio", solver="glucose4:lazy,cadical195:eager,smt")
        assert got.verified and got.grid == single.grid
        winners.add(got.stats["solver"])
    assert winners <= {"glucose4:lazy", "cadical195:eager", "smt"}


PORTFOLIO_SPEC = ("puzzle t\nboard square\nvar v[c in cells] : 1..2\nshow v\n"
                  "rule r: all e in edges: v[e.a] != v[e.b]\n")


@pytest.mark.slow
def test_the_spec_portfolio_line_is_the_default_and_the_command_line_wins(write, run_pzc):
    """`portfolio MEMBERS` in a spec: what --portfolio alone runs; members on
    the command line replace it."""
    write("t.pz", PORTFOLIO_SPEC + "portfolio minisat22:eager, asp:crafty\n")
    write("t.txt", "..\n..\n")
    alone = run_pzc("solve", "t.pz", "t.txt", "--portfolio", "--format", "json")
    assert alone.returncode == 0, alone.stderr
    stats = json.loads(alone.stdout)["stats"]
    assert stats["members"] == ["minisat22:eager", "asp:crafty"]
    given = run_pzc("solve", "t.pz", "t.txt", "--portfolio", "glucose4,smt", "--format", "json")
    assert json.loads(given.stdout)["stats"]["members"] == ["glucose4:lazy", "smt"]
    plain = run_pzc("solve", "t.pz", "t.txt", "--format", "json")
    assert json.loads(plain.stdout)["stats"]["backend"] == "sat"     # only with --portfolio


@pytest.mark.parametrize("line, at, message", [
    ("portfolio glucose4:lazzy", "t.pz:6:1:", "'lazzy' is not a backend"),
    ("portfolio glucose4\nportfolio asp", "t.pz:7:1:", "at most one 'portfolio' line")])
def test_a_bad_portfolio_line_is_located(write, run_pzc, line, at, message):
    write("t.pz", PORTFOLIO_SPEC + line + "\n")
    run = run_pzc("check", "t.pz")
    assert run.returncode == 2 and message in run.stderr and at in run.stderr
    no_traceback(run)
