"""Results as the lines of text the command prints (--format text): the
status line, the --stats line, the board, the drawing and the moves.

    specs/examples/sudoku/grid4.txt: solved, verified
      3142
      ...
"""

from __future__ import annotations

from ..encoder.render import move_text
from ..runtime.errors import plural
from .results import CountResult, DeduceResult, Result, UniqueResult

STATUS_TEXT = {"solved": "solved", "unsat": "no solution", "timeout": "time limit reached",
               "error": "error"}


def stats_line(st: dict, answered: bool) -> str:
    """--stats: the backend and solver, sizes and times (a portfolio: its
    members and the one that answered first)."""
    if "members" in st:
        who = f"portfolio of {', '.join(st['members'])}"
        if not answered:
            ran = st.get("portfolio_s")
            return (f"{who}: no member answered" + (f" in {ran:.3f} s" if ran else "")
                    + f" (compile {st['compile_s']:.3f} s)")
        who += f": {st['solver']} answered first"
    elif st.get("backend") == "states":     # a plan found by the state search alone
        found = st["state_search"]
        return (f"state search ({found['search']}): {found['states']} states; "
                f"compile {st['compile_s']:.3f} s, solve {st['solve_s']:.3f} s")
    elif st.get("variables") is None:       # stopped before a solver ran
        return (f"{st['backend']}/{st['solver']}: stopped while compiling, after "
                f"{st['compile_s']:.3f} s")
    else:
        who = f"{st['backend']}/{st['solver']}"
    rules = f" ({st['rules']} rules)" if "rules" in st else ""
    return (f"{who}: {st['variables']} variables, {st['clauses']} clauses{rules}; "
            f"compile {st['compile_s']:.3f} s, solve {st['solve_s']:.3f} s")


def solve_lines(result: Result, command: str = "solve", stats: bool = False,
                boards: bool = False) -> list:
    """solve's (and decode's) lines for one instance."""
    status = STATUS_TEXT[result.status]
    if result.hint == "explain" and command == "solve":
        status += "; run pzc explain for why"
    if result.status == "solved":
        status += ", verified" if result.verified else ", VERIFICATION FAILED"
    if result.steps is not None:
        status += f": {result.steps} moves, shortest"
    out = [f"{result.instance}: {status}"]
    if stats and result.stats:
        out.append("  " + stats_line(result.stats, result.status in ("solved", "unsat")))
    return out + answer_lines(result, boards)


def answer_lines(result: Result, boards: bool = False) -> list:
    """The grid, the `show text` drawing and the moves of a solved result (a
    plan: its start board, its moves and its end board, labelled)."""
    if result.boards is not None:
        return plan_lines(result, boards)
    out = []
    for rows in (result.grid, result.drawing):
        if rows:
            out += ["  " + row for row in rows]
            if rows is result.grid and result.drawing:
                out.append("")
    for i, move in enumerate(result.moves or [], 1):
        out.append(f"  {i:>3}. {move_text(move)}")
    return out


def plan_lines(result: Result, boards: bool = False) -> list:
    """A plan's start board, its moves (``boards``: each followed by the
    board after it) and its end board (and `show text` drawing)."""
    out = ["  start:"] + ["    " + row for row in result.boards[0]]
    if result.moves:
        out.append("  moves:")
    for i, move in enumerate(result.moves or [], 1):
        out.append(f"  {i:>3}. {move_text(move)}")
        if boards:
            out += ["       " + row for row in result.boards[i]]
    out += ["  end:"] + ["    " + row for row in result.grid or []]
    if result.drawing:
        out += [""] + ["  " + row for row in result.drawing]
    return out


def move_lines(moves) -> list:
    return [f"{j:>3}. {move_text(move)}" for j, move in enumerate(moves or [], 1)]


def count_lines(result: CountResult, show: bool = False) -> list:
    if result.status == "error":
        return [f"{result.instance}: error"]
    more = "" if result.complete else (" so far (time limit reached)" if result.status == "timeout"
                                       else " or more (stopped at --limit)")
    out = [f"{result.instance}: {plural(result.count, 'solution')}{more}"]
    if show:
        for i, (grid, moves) in enumerate(zip(result.solutions, result.moves), 1):
            out.append(f"  solution {i}:")
            out += ["    " + line for line in (grid or []) + move_lines(moves)]
    return out


UNIQUE_TEXT = {"unique": "exactly one solution", "several": "not unique: two solutions differ",
               "none": "no solution", "timeout": "time limit reached", "error": "error"}


def unique_lines(result: UniqueResult, stats: bool = False) -> list:
    out = [f"{result.instance}: {UNIQUE_TEXT[result.status]}"]
    if stats and result.stats:
        out.append("  " + stats_line(result.stats, result.status in ("unique", "several",
                                                                     "none")))
    if result.status == "several":
        out += witness_lines(result)
    elif result.status == "unique":
        grid = result.witnesses[0]
        out += ["  " + line for line in (grid if grid is not None else move_lines(result.moves[0]))]
    return out


def witness_lines(result: UniqueResult) -> list:
    """Two solutions side by side, '*' where they differ."""
    out = []
    if result.witnesses[0] is not None:
        first, second = result.witnesses
        width = max(len(r) for r in first)
        out.append(f"  {'first':<{width}}   {'second':<{width}}   {'differ (*)'}")
        for a, b, m in zip(first, second, result.marks):
            out.append(f"  {a:<{width}}   {b:<{width}}   {m}")
    else:                                   # a spec that shows only moves
        for label, moves in zip(("first", "second"), result.moves):
            out.append(f"  {label}:")
            out += ["    " + line for line in move_lines(moves)]
    return out


def deduce_lines(result: DeduceResult, stats: bool = False) -> list:
    """The board with what every solution shares; '?' open, '~' undecided."""
    open_, undecided = len(result.open), len(result.undecided)
    if result.status == "unique":
        head = "exactly one solution: every place determined"
    elif result.status == "several":
        head = (f"several solutions: {result.determined} places determined, "
                f"{open_} open ('?')")
    elif result.status == "none":
        head = "no solution (pzc explain says why)"
    elif result.status == "timeout":
        head = "time limit reached"
        if result.board is not None:
            head += (f", partial: {result.determined} places determined, {open_} open ('?'), "
                     f"{undecided} not decided ('~')")
    else:
        head = "error"
    out = [f"{result.instance}: {head}"]
    if stats and result.stats:
        out.append("  " + stats_line(result.stats, result.status != "timeout")
                   + f"; {plural(result.solutions, 'solution')} looked at")
    if result.board is not None:
        out += ["  " + line for line in result.board]
    return out

