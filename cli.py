"""The `pzc` command: a thin shell over pzc.api (parse flags, call, print, exit)."""

from __future__ import annotations

import argparse
import errno
import gc
import json
import os
import re
import sys
import time

from . import __version__, api
from .backends.registry import BACKENDS, CONNECTIVITY, INCREMENTAL
from .encoder.check import summary
from .runtime import clock
from .runtime.deep_stack import run_deep
from .runtime.errors import (EXIT_PIPE, EXIT_TIMEOUT, EXIT_USAGE, EXIT_VERIFY, PzcError, printable,
                             worst_exit)
from .runtime.progress import BatchBar, Display, stop_lines
from .tasks import batch as batch_task
from .tasks import text as text_output
from .tasks import timing
from .tasks.explain.report import explain_lines
from .tasks.generate.task import generated_text
from .tasks.pictures.documents import write_pictures as write_documents
from .tasks.serve import DEFAULT_PORT
from .tasks.specs import listing as spec_listing

DESCRIPTION = """\
pzc compiles grid logic puzzles, written as short spec files, into SAT (PySAT)
or SMT (Z3) problems, solves them and prints the solved board, verified.

exit codes: 0 all solved; 1 an instance has no solution; 2 bad usage, spec or
instance; 3 time limit reached; 4 verification failed (a bug in pzc); 141 the
output was cut (a closed pipe, as in `pzc ... | head`)."""

SOLVE_EPILOG = """\
SPEC is a built-in spec name (see `pzc specs`) or a path to a .pz file.
INSTANCE is a file ('-' reads standard input); a file may hold several
instances, reported as path#1, path#2, ...

examples:
  pzc solve sudoku puzzles.txt
  pzc solve hexiom level38.txt --format json
  pzc solve my.pz board.txt --backend smt --timeout 60"""


BATCH_EPILOG = """\
Each instance's --timeout counts from when a worker starts it.  An
interrupted batch (Ctrl-C, kill, a lost machine) loses at most the instances
that were running: run it again with --resume.

examples:
  pzc batch nurikabe set/*.txt --out results.jsonl
  pzc batch nurikabe set/*.txt --out results.jsonl --resume --timeout 60
  pzc batch slitherlink dataset.json --task unique --workers 4 --out u.jsonl
  pzc batch sudoku puzzles.txt --scheduler tcp://10.0.0.5:8786 --out r.jsonl
exit codes: as pzc solve over all the instances (those resumed from --out too)"""


SPEC_HELP = ("built-in spec name (or puzz.link type name) or path to a .pz file; left out "
             "before a puzz.link URL, a file of URLs or a pzprv3 file, each instance is "
             "read by the built-in spec of its own type")
ONE_INSTANCE_HELP = ("instance file (path#k for the k-th of a file holding several), a "
                     "puzz.link URL or a pzprv3 file")


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # usage errors exit 2 with a plain message
        self.print_usage(sys.stderr)
        print(f"pzc: error: {message}", file=sys.stderr)
        sys.exit(EXIT_USAGE)


MAX_TIMEOUT = 10 ** 6      # seconds (11 days): beyond that, leave --timeout out


def _positive(text):
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, not {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError("the time limit must be more than 0 seconds")
    if not value <= MAX_TIMEOUT:
        raise argparse.ArgumentTypeError(f"the time limit is at most {MAX_TIMEOUT} seconds; "
                                         "leave --timeout out for no limit")
    return value


def _solver_options(p, what="solve", answer_files=None, moves=False):
    """The flags solve, count and unique share (``answer_files``: what
    --format pzprv3 writes, for the commands that have it)."""
    _engine_options_flags(p)
    p.add_argument("--format", choices=["text", "json", "svg"] + (["pzprv3"] if answer_files
                                                                    else [])
                   + (["moves"] if moves else []), default="text",
                   help="text (default); json: one JSON object per instance per line; svg: "
                        "a picture of the board and its answer (a standalone SVG document; "
                        "several instances, or a move puzzle's boards, as one HTML page)"
                        + (f"; pzprv3: {answer_files}" if answer_files else "")
                        + ("; moves: the tiles to move, from where to where, in an order a "
                           "player can make them (an answer that rearranges the clues, as "
                           "Hexiom's; json has them as \"moves\")" if moves else ""))
    p.add_argument("-o", "--output", metavar="FILE", default=None,
                   help="--format svg: write the picture here (default: stdout). FILE.html: "
                        "one page of every instance; FILE.svg with several instances: "
                        "FILE-1.svg, FILE-2.svg, ... (a move puzzle: FILE-k.html)"
                        + ("; --format pzprv3: write the files here, one after another"
                           if answer_files else ""))
    p.add_argument("--quiet", action="store_true",
                   help="show no progress on standard error (otherwise a command that runs "
                        "longer than a second shows its phase, connectivity rounds, plan "
                        "depth, solutions and instances done there, on a terminal only)")
    p.add_argument("--debug", action="store_true", help="show Python tracebacks on internal errors")


def _plan_search_flag(p, which=""):
    p.add_argument("--plan-search", choices=list(api.PLAN_SEARCHES), default="auto",
                   help=f"{which}move puzzles: auto (default) searches the states themselves "
                        "while they fit in memory, then goes on with SAT; states or sat: that "
                        "search alone (docs/language.md, \"Plans\")")


def _engine_options_flags(p):
    """SPEC, INSTANCE... and the flags that choose the solver and the time
    limit (solve, count, unique and batch)."""
    p.add_argument("spec", metavar="SPEC", help=SPEC_HELP)
    p.add_argument("instances", metavar="INSTANCE", nargs="*",
                   help="instance file, or - for stdin, a puzz.link URL, a file of URLs (one "
                        "a line), a pzprv3 file or a puzzlekit dataset JSON file")
    p.add_argument("--backend", choices=list(BACKENDS), default="sat",
                   help="; ".join(f"{name}: {about}" for name, (_, _, about) in BACKENDS.items()))
    p.add_argument("--solver", metavar="NAME", default=None,
                   help="PySAT solver name for --backend sat (default cadical195; "
                        "also glucose4, kissat404, minisat22, ...); for --backend asp "
                        "clingo's configuration (auto, crafty, trendy, jumpy, ...; NAME,T "
                        "solves with T threads)")
    p.add_argument("--solver-cmd", metavar="CMD", default=None,
                   help='the command of --backend external, e.g. "cadical -q" (the CNF file '
                        'is appended) or "minisat {input} {output}"')
    p.add_argument("--connectivity", choices=list(CONNECTIVITY), default=None,
                   help="how connected(...) is encoded for --backend sat: lazy cuts added "
                        "while solving (default; after 5 s a constraint broken by 50 "
                        "answers gets the rank encoding too) or a self-contained rank encoding; "
                        "the other backends are always eager")
    p.add_argument("--portfolio", metavar="CONFIGS", nargs="?", const="default", default=None,
                   help="run several solver configurations at once, one process each, and "
                        "take the first answer (the others are killed). CONFIGS: members "
                        "joined by ',', each backend:solver:connectivity with any part left "
                        "out, e.g. glucose4:lazy,cadical195:eager or smt,cadical195; alone: "
                        "the spec's solver with lazy connectivity beside clingo (asp). "
                        "count and unique go on with the member that answered first; not "
                        "for move puzzles; replaces --backend, --solver and --connectivity")
    p.add_argument("--timeout", metavar="S", type=_positive, default=None,
                   help=f"time limit in seconds per instance (exit 3 when reached)")


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="pzc", description=DESCRIPTION,
                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--version", action="version", version=f"pzc {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True

    s = sub.add_parser("solve", help="solve puzzle instances and print the verified answers",
                       description="Solve each instance, verify the answer against the "
                                   "spec's rules and print it.",
                       epilog=SOLVE_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    _solver_options(s, moves=True,
                    answer_files="each instance as puzz.link's file with its answer, as "
                                 "puzz.link saves a solved puzzle (files one after another, "
                                 "a blank line between; none for an instance without an "
                                 "answer)")
    s.add_argument("--stats", action="store_true",
                   help="text format: also print variables, clauses and times")
    s.add_argument("--max-steps", metavar="N", type=_steps, default=api.DEFAULT_MAX_STEPS,
                   help="move puzzles: look for plans of at most N moves (default "
                        f"{api.DEFAULT_MAX_STEPS}); none within N exits 1")
    _plan_search_flag(s)
    s.add_argument("--show-boards", action="store_true",
                   help="move puzzles: print the board after each move (JSON: a 'boards' list)")

    c = sub.add_parser("count", help="count the solutions of puzzle instances",
                       description="Count each instance's solutions by enumerating them with "
                                   "blocking clauses.  Two models that print the same board are "
                                   "one solution.  On a terminal, a running count shows on "
                                   "standard error when it takes longer than a second.",
                       epilog="exit codes: 0 counted (to the end or to --limit); 3 time limit "
                              "reached (the count so far is printed, complete false); 2 bad "
                              "input; 4 verification failed")
    _solver_options(c)
    c.add_argument("--limit", metavar="N", type=_count_limit, default=None,
                   help="stop after N solutions (complete is then false unless there are no more)")
    c.add_argument("--show", action="store_true", help="print the solutions too")

    u = sub.add_parser("unique", help="check that each instance has exactly one solution",
                       description="Look for two solutions of each instance.  With several, show "
                                   "two and where they differ.",
                       epilog="exit codes: 0 every instance has exactly one solution; 1 some "
                              "instance has none or several; 2 bad input; 3 time limit reached")
    _solver_options(u, answer_files="each instance as puzz.link's file with its answer (with "
                                    "several solutions: the first witness, as the text "
                                    "output's first board; files one after another, a blank "
                                    "line between; none for an instance without a solution)")
    u.add_argument("--stats", action="store_true",
                   help="text format: also print variables, clauses and times")

    d = sub.add_parser("deduce", help="show what every solution shares: the board with '?' "
                                      "where solutions differ",
                       description="For each instance, the board with every place that is the "
                                   "same in all solutions drawn as in an answer, '?' where "
                                   "two solutions differ and, when the time limit comes first, "
                                   "'~' where it was not decided yet (the result is then "
                                   "partial).  One incremental solver finds it: each new "
                                   "solution must change something still undecided.  Every "
                                   "solution met is verified.",
                       epilog="exit codes: 0 deduced (one solution or several); 1 an instance "
                              "has no solution (pzc explain says why); 2 bad input; 3 time "
                              "limit reached (what was decided so far is printed)")
    _solver_options(d, answer_files="each instance as puzz.link's file holding what every "
                                    "solution shares (the determined places), as puzz.link "
                                    "saves a half-solved puzzle")
    d.add_argument("--stats", action="store_true",
                   help="text format: also print variables, clauses, times and the number of "
                        "solutions looked at")

    x = sub.add_parser("explain", help="say why an instance has no solution, or which clue "
                                       "would make it unique",
                       description="With no solution: a minimal set of clues and rule instances "
                                   "that already has none (dropping any one of them makes it "
                                   "solvable), each with the file, line and column it is "
                                   "written at.  With exactly one solution: the answer.  With "
                                   "several: two of them, where they differ, and a clue from the "
                                   "first that rules out the second.",
                       epilog="exit codes: 0 exactly one solution; 1 no solution (explained) or "
                              "several; 2 bad input (or a move puzzle); 3 time limit reached")
    x.add_argument("spec", metavar="SPEC", help=SPEC_HELP)
    x.add_argument("instances", metavar="INSTANCE", nargs="*",
                   help="instance file, or - for stdin, a puzz.link URL, a file of URLs or a "
                        "pzprv3 file")
    x.add_argument("--backend", choices=list(INCREMENTAL), default="sat",
                   help="sat: assumption cores of a PySAT solver (default); smt: Z3's")
    x.add_argument("--solver", metavar="NAME", default=None,
                   help="an incremental PySAT solver for --backend sat (default: the spec's, "
                        "else cadical195)")
    x.add_argument("--connectivity", choices=["lazy", "eager"], default=None,
                   help="how connected(...) is encoded for --backend sat (default lazy)")
    x.add_argument("--timeout", metavar="S", type=_positive, default=None,
                   help="time limit in seconds per instance (exit 3 when reached)")
    x.add_argument("--format", choices=["text", "json", "svg"], default="text",
                   help="text (default), one JSON object per instance per line, or svg: the "
                        "board with the core's clues filled red and the cells its rules name "
                        "outlined (several solutions: both, where they differ, the suggested "
                        "clue in blue)")
    x.add_argument("-o", "--output", metavar="FILE", default=None,
                   help="--format svg: write the picture here (as for solve)")
    x.add_argument("--stats", action="store_true",
                   help="text format: also print sizes, solver calls and times")
    x.add_argument("--quiet", action="store_true", help="show no progress on standard error")
    x.add_argument("--debug", action="store_true", help="show Python tracebacks on internal errors")
    x.set_defaults(solver_cmd=None, portfolio=None)
    b = sub.add_parser("batch", help="solve, count or check every instance of many files on "
                                     "all cores or a Dask cluster, resumable",
                       description="Run every instance of every file (files holding several, "
                                   "dataset files, files of URLs) as one task, spread over "
                                   "worker processes or a Dask cluster, and write one JSON line "
                                   "per instance as it finishes, as `pzc solve --format json` "
                                   "prints it (count and unique: theirs), in the order they "
                                   "finish.  A progress bar (done/total, rate, time left) shows "
                                   "on standard error on a terminal; a summary follows at the "
                                   "end.",
                       epilog=BATCH_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    _engine_options_flags(b)
    b.add_argument("--task", choices=["solve", "count", "unique"], default="solve",
                   help="what to do with each instance (default solve)")
    b.add_argument("--workers", metavar="N", type=_count_arg, default=None,
                   help="worker processes (default: all cores); with --scheduler local, the "
                        "LocalCluster's worker processes")
    b.add_argument("--out", metavar="FILE", default=None,
                   help="write the JSON lines here (default: standard output)")
    b.add_argument("--resume", action="store_true",
                   help="read --out FILE first: skip the instances whose line is there and "
                        "append the others (a last line cut short is dropped and run again)")
    b.add_argument("--scheduler", metavar="ADDRESS", default=None,
                   help="run on a Dask cluster: tcp://HOST:PORT of its scheduler, or local "
                        "for a LocalCluster of --workers processes on this machine "
                        "(needs pip install 'pzc[cluster]')")
    b.add_argument("--max-steps", metavar="N", type=_steps, default=api.DEFAULT_MAX_STEPS,
                   help=f"--task solve, move puzzles: plans of at most N moves (default "
                        f"{api.DEFAULT_MAX_STEPS})")
    _plan_search_flag(b, "--task solve, ")
    b.add_argument("--limit", metavar="N", type=_count_limit, default=None,
                   help="--task count: stop after N solutions")
    b.add_argument("--quiet", action="store_true",
                   help="no progress bar and no summary on standard error")
    b.add_argument("--debug", action="store_true", help="show Python tracebacks on internal errors")

    d = sub.add_parser("dimacs", help="write an instance's CNF as DIMACS with a symbol table",
                       description="Write the CNF of one instance in DIMACS, with connectivity "
                                   "encoded eagerly so the file alone is equisatisfiable with the "
                                   "puzzle.  Comment lines name the spec, the instance and the "
                                   "encodings, and map literals to spec variables "
                                   "(docs/dimacs.md).")
    d.add_argument("spec", metavar="SPEC", help=SPEC_HELP)
    d.add_argument("instance", metavar="INSTANCE", nargs="?", help=ONE_INSTANCE_HELP)
    d.add_argument("-o", "--output", metavar="FILE", help="write the DIMACS here (default: stdout)")
    d.add_argument("--map", metavar="FILE", help="also write the symbol table as JSON")
    d.add_argument("--debug", action="store_true", help=argparse.SUPPRESS)

    m = sub.add_parser("decode", help="decode a SAT solver's answer to `pzc dimacs`'s formula",
                       description="Read a SAT solver's answer to the formula `pzc dimacs` writes "
                                   "for the same spec and instance, check it against the formula, "
                                   "decode, verify and print it as `pzc solve` does.")
    m.add_argument("spec", metavar="SPEC", help=SPEC_HELP)
    m.add_argument("instance", metavar="INSTANCE", nargs="?", help=ONE_INSTANCE_HELP)
    m.add_argument("--model", metavar="FILE", required=True,
                   help="the solver's output: 's SATISFIABLE' and 'v ... 0' lines, MiniSat's "
                        "result file, or a list of literals ('-' for stdin)")
    m.add_argument("--format", choices=["text", "json"], default="text")
    m.add_argument("--stats", action="store_true", help=argparse.SUPPRESS)
    m.add_argument("--debug", action="store_true", help=argparse.SUPPRESS)

    v = sub.add_parser("convert", help="write instances as puzz.link URLs, pzprv3 files or text",
                       description="Read each instance (a text grid, a puzzlekit dataset file, "
                                   "a puzz.link URL, a file of URLs, a pzprv3 file) and write it "
                                   "again in another format, without solving it: a URL a line, "
                                   "pzprv3 files one after another, or text instances as pzc "
                                   "reads them (a 'W H' header, one grid per layer).",
                       epilog="examples:\n"
                              "  pzc convert nurikabe puzzles.txt --format url\n"
                              "  pzc convert 'https://puzz.link/p?nurikabe/5/5/g5k2o1k3g' "
                              "--format text\n"
                              "  pzc convert akari Akari_dataset.json --format pzprv3 -o out.txt",
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    v.add_argument("spec", metavar="SPEC", help=SPEC_HELP)
    v.add_argument("instances", metavar="INSTANCE", nargs="*",
                   help="as for solve: files, URLs, '-' for stdin")
    v.add_argument("--format", choices=["url", "pzprv3", "text"], default="url",
                   help="url (default): puzz.link URLs, one a line; pzprv3: puzz.link's file "
                        "format; text: pzc's token grids")
    v.add_argument("-o", "--output", metavar="FILE", help="write here (default: stdout)")
    v.add_argument("--debug", action="store_true", help=argparse.SUPPRESS)

    rd = sub.add_parser("read", help="read a puzzle from a picture of its board (PNG, JPEG)",
                        description="Find the board in a picture (a screenshot of puzz.link or "
                                    "a game, a picture pzc drew): its frame, rows and columns "
                                    "(or Hexiom's hexagons), then read each cell and border for "
                                    "what the spec's clues look like (numbers, '?', circles, "
                                    "black cells, region walls), and write the instance.  A "
                                    "place it is not sure of is an error naming the place and "
                                    "what it saw (exit 2), never a guess.  Any command reads a "
                                    "picture given as its INSTANCE the same way.",
                        epilog="examples:\n"
                               "  pzc read heyawake screenshot.png --format url\n"
                               "  pzc read hexiom level.png --format json\n"
                               "  pzc read masyu board.png --debug-image seen.png\n"
                               "  pzc solve masyu board.png",
                        formatter_class=argparse.RawDescriptionHelpFormatter)
    rd.add_argument("spec", metavar="SPEC", help=SPEC_HELP)
    rd.add_argument("pictures", metavar="IMAGE", nargs="+", help="PNG or JPEG files")
    rd.add_argument("--format", choices=["text", "json", "url", "pzprv3"], default="text",
                    help="text (default): pzc's token grids; json: the instance with each "
                         "cell's pixel centre and what it shows; url: a puzz.link URL; "
                         "pzprv3: puzz.link's file format")
    rd.add_argument("--debug-image", metavar="OUT.png",
                    help="draw what was found over the picture and write it here (with "
                         "several pictures: OUT-1.png, OUT-2.png, ...); also when reading fails, "
                         "the unsure place in red")
    rd.add_argument("-o", "--output", metavar="FILE", help="write here (default: stdout)")
    rd.add_argument("--debug", action="store_true", help=argparse.SUPPRESS)

    gp = sub.add_parser("generate", help="generate puzzles with exactly one solution",
                        description="Draw a random solution of the spec's `generate` lines, "
                                    "derive its clues, repair it until the puzzle has one "
                                    "solution, then blank clues (in random order) while it stays "
                                    "unique.  Every puzzle printed is re-solved and verified.",
                        epilog="examples:\n"
                               "  pzc generate sudoku --count 5 --seed 1\n"
                               "  pzc generate akari --size 10x10 --format url\n"
                               "  pzc generate slitherlink --size 8x6 --format json\n"
                               "  pzc generate starbattle --like puzzle.txt --count 3\n"
                               "exit codes: 0 every puzzle made; 2 bad input; 3 a time limit "
                               "reached; 4 a bug (a puzzle that does not verify)",
                        formatter_class=argparse.RawDescriptionHelpFormatter)
    gp.add_argument("spec", metavar="SPEC", help="built-in spec name or path to a .pz file "
                    "with 'generate' lines")
    gp.add_argument("--size", metavar="WxH", type=_size, default=None,
                    help="the board: WxH, or N for N x N (a hexagon of side N on hex boards); "
                         "default: the spec's 'generate size'")
    gp.add_argument("--like", metavar="INSTANCE", default=None,
                    help="take the board from this instance (a file, FILE#k, or a puzz.link "
                         "URL): its size and shape, parameters and layers, not its clues")
    gp.add_argument("--count", metavar="N", type=_count_arg, default=1,
                    help="how many puzzles (default 1)")
    gp.add_argument("--seed", metavar="S", type=int, default=None,
                    help="puzzle k is made from seed S + k, and the same seed gives the same "
                         "puzzle (default: a random S, printed with each puzzle)")
    gp.add_argument("--timeout", metavar="S", type=_positive, default=None,
                    help="time limit in seconds per puzzle (exit 3 when reached)")
    gp.add_argument("--param", metavar="NAME=V", action="append", default=[],
                    help="a parameter of the spec's instances, e.g. --param stars=2")
    gp.add_argument("--keep-clues", action="store_true",
                    help="keep every clue the drawn solution gives (by default clues are "
                         "blanked while the puzzle stays unique: a minimal puzzle)")
    gp.add_argument("--workers", metavar="N", type=_count_arg, default=None,
                    help="processes making puzzles at once (default: all cores)")
    gp.add_argument("--solver", metavar="NAME", default=None,
                    help="PySAT solver that draws and checks (default: Glucose draws, with "
                         "random phases on every variable, and the spec's solver, else "
                         "cadical195, checks uniqueness)")
    gp.add_argument("--format", choices=["text", "json", "url", "pzprv3", "svg"], default="text",
                    help="text (default): pzc's instance files, each after a '#' line with its "
                         "seed; json: one object a line (instance, url, solution, clues, seed, "
                         "stats); url: puzz.link URLs; pzprv3: puzz.link's files with the "
                         "puzzle's answer, as puzz.link saves a solved puzzle; svg: each "
                         "puzzle beside its solution (several: one HTML page, or FILE-k.svg "
                         "files with -o FILE.svg)")
    gp.add_argument("-o", "--output", metavar="FILE", help="write here (default: stdout)")
    gp.add_argument("--debug", action="store_true", help=argparse.SUPPRESS)

    c = sub.add_parser("check", help="parse and check a spec",
                       description="Parse and check a spec; print a one-line summary or the errors.")
    c.add_argument("spec", metavar="SPEC", help="built-in spec name or path to a .pz file")
    c.add_argument("--debug", action="store_true", help=argparse.SUPPRESS)

    sv = sub.add_parser("serve", help="a local web page for setters: paste a puzzle, solve, "
                                      "check uniqueness, deduce, explain, generate",
                        description="Serve the workbench (docs/workbench.md): a web page on "
                                    "this machine that reads a puzz.link URL, a pzprv3 file or "
                                    "a text instance, draws the board at once, and runs Solve, "
                                    "Unique, Deduce, Explain and Generate under a time limit, "
                                    "each job in a process of its own that Stop ends at once.  "
                                    "It prints its address and serves until Ctrl-C.",
                        epilog="example:\n  pzc serve --open\n  then open "
                               "http://127.0.0.1:8329/?url=https://puzz.link/p?nurikabe/5/5/"
                               "g5k2o1k3g", formatter_class=argparse.RawDescriptionHelpFormatter)
    sv.add_argument("--port", type=_port, default=DEFAULT_PORT,
                    help=f"the port to listen on (default {DEFAULT_PORT}; 0: any free one)")
    sv.add_argument("--host", default="127.0.0.1",
                    help="the address to listen on (default 127.0.0.1, this machine only); "
                         "another address lets anyone who reaches it run jobs here: unsafe "
                         "on a shared network")
    sv.add_argument("--open", action="store_true", help="open the page in a web browser")
    sv.add_argument("--debug", action="store_true", help=argparse.SUPPRESS)

    sp = sub.add_parser("specs", help="list the built-in specs",
                        description="List the built-in specs, one a line: the name, what "
                                    "`pzc generate` makes (GENERATE: the default board size as "
                                    "--size takes it, WxH or a hexagon's side N; --size: a size "
                                    "must be given; --like: the board must come from an "
                                    "instance, as in `pzc generate SPEC --like INSTANCE`; -: "
                                    "the spec has no generate lines), the description and the "
                                    "puzz.link type names.")
    sp.add_argument("--debug", action="store_true", help=argparse.SUPPRESS)
    p.commands = sub.choices
    return p


def parse_arguments(argv: list):
    """The command line, options allowed anywhere among the positionals
    (`pzc solve hexiom --solver glucose4 level*.txt`): plain parse_args stops
    filling SPEC and INSTANCE at the first option."""
    parser = build_parser()
    command = parser.commands.get(argv[0]) if argv else None
    if command is None:
        return parser.parse_args(argv)
    args = command.parse_intermixed_args(argv[1:])
    args.command = argv[0]
    return args


def _steps(text):
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of moves, got {text!r}") from None
    if n < 0:
        raise argparse.ArgumentTypeError(f"the number of moves is at least 0, not {n}")
    return n


def _count_limit(text):
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError("the limit is at least 1")
    return value


OUTPUT_ERRNOS = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO}


def _drop_stdout():
    try:
        sys.stdout.flush()
    except OSError:
        pass
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def _hold_closed_streams() -> bool:
    """Started with standard output or error closed (`pzc ... >&-`), Python
    sets sys.stdout or sys.stderr to None: print(file=None) then writes an
    error message to standard output, and the next file opened takes fd 1 or
    2 (a solver process writing to its standard output would write into it).
    Each closed one is held by /dev/null: standard error drops the messages
    (the exit code still tells), standard output is held read-only, so that
    every write to it fails as on a closed one (reported as output that
    cannot be written, exit 2).  True if standard output was closed."""
    stdout_closed = False
    for fd, name, mode in ((1, "stdout", os.O_RDONLY), (2, "stderr", os.O_WRONLY)):
        if getattr(sys, name) is not None or _is_open(fd):
            continue
        held = os.open(os.devnull, mode)
        if held != fd:
            os.dup2(held, fd)
            os.close(held)
        # line-buffered: standard output fails at its first line, not at the exit
        setattr(sys, name, open(fd, "w", buffering=1, closefd=False))
        stdout_closed = stdout_closed or fd == 1
    return stdout_closed


def _is_open(fd: int) -> bool:
    try:
        os.fstat(fd)
        return True
    except OSError:
        return False


STDOUT_CLOSED = "standard output is closed"
_stdout_closed = False           # set by main: the command was started with it closed


def main(argv=None) -> int:
    if argv is not None:
        return _main(argv)
    global _stdout_closed
    _stdout_closed = _hold_closed_streams()
    # the command: the cyclic collector runs between instances only, outside
    # every time limit (after a big instance its first pass takes seconds)
    gc.disable()
    try:
        code = _main(argv)
    except SystemExit as e:            # argparse: --help, --version, a usage error
        if not isinstance(e.code, int):
            raise
        code = e.code                  # its output checked by _exit_now as any other
    return _exit_now(code)


def _main(argv) -> int:
    args = parse_arguments(_bare_portfolio(sys.argv[1:] if argv is None else argv))
    try:
        if args.command == "serve":     # on the main thread: Ctrl-C reaches its server loop
            return cmd_serve(args)
        command = {"solve": cmd_solve, "count": cmd_count, "unique": cmd_unique,
                   "deduce": cmd_deduce, "explain": cmd_explain,
                   "batch": cmd_batch,
                   "dimacs": cmd_dimacs, "decode": cmd_decode, "check": cmd_check,
                   "convert": cmd_convert, "generate": cmd_generate, "read": cmd_read,
                   "specs": cmd_specs}[args.command]
        return run_deep(command, args)       # deep specs recurse deep: see runtime/deep_stack.py
    except PzcError as e:
        print(e.format(), file=sys.stderr)
        return e.exit_code
    except RecursionError:
        # only where no deep stack could be had (runtime/deep_stack.py: a tight ulimit -v);
        # the spec's own limits are located errors before this
        print("pzc: error: the spec nests or recurses too deeply for the stack this "
              "process could get; raise ulimit -v or simplify the spec", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        stop_lines()
        print("pzc: interrupted", file=sys.stderr)
        return 130
    except MemoryError:         # past the checks of runtime/limits.py: still a plain message
        print("pzc: error: out of memory (a smaller instance, or a larger ulimit -v, may fit)",
              file=sys.stderr)
        return EXIT_USAGE
    except OSError as e:
        code = _output_failed(e)
        if code is None:
            raise
        return code
    except Exception as e:  # a crash is a bug; say so plainly
        if getattr(args, "debug", False):
            raise
        print(printable(f"pzc: internal error (a bug in pzc): {type(e).__name__}: {e}")
              + "\nrun again with --debug for the traceback", file=sys.stderr)
        return EXIT_VERIFY


def _exit_now(code: int) -> int:
    """The command, done: exit without the interpreter's clean-up.  Freeing
    what a big instance built (a million-cell board, a solver with many cuts:
    clock.leave_behind) takes seconds that would be spent past the time limit,
    and the operating system frees it at once."""
    try:
        sys.stdout.flush()
    except OSError as e:                 # the output's last lines could not be written
        failed = _output_failed(e)
        if failed is None:
            return code                  # the usual exit reports it
        code = failed if failed == EXIT_PIPE else worst_exit([code, failed])
    except ValueError:                   # closed by the command: the usual exit reports it
        return code
    try:
        sys.stderr.flush()
    except (OSError, ValueError):
        pass                             # nowhere left to say it; the exit code tells
    os._exit(code)


def _output_failed(e: OSError):
    """The exit code for an error writing standard output, said plainly (None:
    another OSError, not the output's)."""
    if isinstance(e, BrokenPipeError):
        # the reader went away (pzc ... | head): stop quietly; point stdout at
        # devnull so the interpreter's last flush does not fail again
        _drop_stdout()
        return EXIT_PIPE
    if e.errno == errno.EBADF and _stdout_closed:
        why = STDOUT_CLOSED
    elif e.errno in OUTPUT_ERRNOS:       # > /dev/full, a full disk
        why = e.strerror
    else:
        return None
    _drop_stdout()
    print(f"pzc: error: cannot write the output: {why}", file=sys.stderr)
    return EXIT_USAGE


def cmd_specs(args) -> int:
    for line in spec_listing():
        _out(line)
    return 0


def cmd_convert(args) -> int:
    """Each instance written again in another format; a file that cannot be
    read is reported on standard error and the others are still written."""
    _spec_argument(args)
    specs = api.SpecChoice.of(args.spec)
    out = []
    code = 0
    for path in args.instances:
        try:
            found = specs.read(path)
        except PzcError as e:
            print(e.format(), file=sys.stderr)
            code = max(code, e.exit_code)
            continue
        for spec, inst in found:
            try:
                if inst.unreadable is not None:
                    raise inst.unreadable
                out.append(api.write_instance(spec, inst, args.format))
            except PzcError as e:
                print(e.format(), file=sys.stderr)
                code = max(code, e.exit_code)
    sep = "" if args.format == "url" else "\n"
    text = sep.join(line if line.endswith("\n") else line + "\n" for line in out)
    _write_output(text, args.output)
    return code


def _write_output(text: str, output: str | None) -> None:
    """Write to -o FILE, else to standard output."""
    if not output:
        sys.stdout.write(text)
        return
    try:
        with open(output, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as e:
        raise PzcError(f"cannot write {output}: {e.strerror}") from None


def cmd_read(args) -> int:
    """Each picture's instance written as convert writes instances; a picture
    that cannot be read is reported on standard error and the others are
    still written."""
    spec = api.load_spec(args.spec)
    out = []
    code = 0
    many = len(args.pictures) > 1
    for k, path in enumerate(args.pictures, 1):
        debug = args.debug_image
        if debug and many:
            stem, dot, suffix = debug.rpartition(".")
            debug = f"{stem}-{k}.{suffix}" if dot else f"{debug}-{k}"
        try:
            reading = api.read_picture(spec, path, debug_image=debug)
            out.append(api.picture_text(spec, reading, args.format))
        except PzcError as e:
            print(e.format(), file=sys.stderr)
            code = max(code, e.exit_code)
    text = ("" if args.format in ("url", "json") else "\n").join(out)
    _write_output(text, args.output)
    return code


def cmd_generate(args) -> int:
    """Puzzles printed as they come; a puzzle that could not be made is
    reported on standard error and the others are still printed."""
    spec = api.load_spec(args.spec)
    params = {}
    for item in args.param:
        name, eq, value = item.partition("=")
        if not eq or not name or not re.fullmatch(r"-?\d+", value.strip()):
            raise PzcError(f"--param {item}: expected NAME=NUMBER, e.g. --param stars=2")
        params[name.strip()] = int(value)
    workers = args.workers or (os.cpu_count() or 1)
    like = api.select_instance(spec, args.like) if args.like is not None else None
    if like is not None and like.unreadable is not None:
        raise like.unreadable
    # the first puzzles' limit counts from the process start, as solve's first instance's
    made = api.generate(spec, args.size, args.count, args.seed, args.timeout, params,
                        minimal=not args.keep_clues, solver=args.solver,
                        workers=min(workers, args.count), like=like,
                        limit_from=time.monotonic() - seconds_since_start())
    if args.format == "svg":
        return _generated_pictures(spec, made, args)
    out = open(args.output, "w", encoding="utf-8") if args.output else sys.stdout
    codes = []
    written = 0
    try:
        for g in made:
            codes.append(g.exit_code)
            if g.status != "generated" and args.format != "json":
                why = g.error.format() if g.error is not None else "pzc: time limit reached"
                print(f"seed {g.seed}: {why}", file=sys.stderr)
                continue
            if args.format == "pzprv3" and written:
                out.write("\n")        # files apart by a blank line, as convert writes them
            out.write(generated_text(spec, g, args.format))
            written += 1
            out.flush()
    finally:
        if args.output:
            out.close()
    return worst_exit(codes)


def _generated_pictures(spec, made, args) -> int:
    """--format svg: each puzzle and its solution side by side, written at the end."""
    codes, documents = [], []
    for g in made:
        codes.append(g.exit_code)
        if g.status != "generated":
            why = g.error.format() if g.error is not None else "pzc: time limit reached"
            print(f"seed {g.seed}: {why}", file=sys.stderr)
            continue
        documents.append(api.generated_document(spec, g))
    write_pictures(documents, args.output, f"pzc generate {args.spec}")
    return worst_exit(codes)


def _port(text: str) -> int:
    if not text.isdigit() or int(text) > 65535:
        raise argparse.ArgumentTypeError(f"expected a port number from 0 to 65535, not {text!r}")
    return int(text)


def cmd_serve(args) -> int:
    from .tasks.serve.server import serve       # the web library only for this command
    serve(args.host, args.port, args.open, say=lambda line: _out(line, flush=True))
    return 0


def _size(text: str):
    m = re.fullmatch(r"\s*(\d+)\s*(?:[xX]\s*(\d+)\s*)?", text)
    if not m:
        raise argparse.ArgumentTypeError(f"expected WxH or N, e.g. 10x10, not {text!r}")
    return int(m.group(1)), int(m.group(2)) if m.group(2) else None


def _count_arg(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, not {text!r}")
    return n


def cmd_check(args) -> int:
    spec = api.load_spec(args.spec)
    _out(summary(spec))
    return 0


def _error_result(args, path, spec_name, error):
    """The command's own result object for an instance it could not reach (a
    bad spec or flag, an unreadable file; spec_name None: no spec reads it)."""
    kind = {"solve": api.Result, "count": api.CountResult, "unique": api.UniqueResult,
            "deduce": api.DeduceResult, "explain": api.ExplainResult}[args.command]
    return kind(path if path != "-" else "<stdin>", spec_name, "error",
                error=error, exit_code=error.exit_code)


def _timeout_result(args, path, spec, spec_name):
    """The result for a file whose reading used up the time limit (spec: the
    one reading it, None when it was not known or not loaded yet; spec_name:
    its name, None when not known)."""
    kind = {"solve": api.Result, "count": api.CountResult, "unique": api.UniqueResult,
            "deduce": api.DeduceResult, "explain": api.ExplainResult}[args.command]
    if spec is not None:
        stats = api.stopped_stats(spec, backend=args.backend, solver=args.solver,
                                  connectivity=args.connectivity, solver_cmd=args.solver_cmd)
    elif spec_name is not None:     # its spec was still loading: what the options tell
        stats = {"backend": args.backend, "variables": None, "clauses": None}
    else:
        stats = {}
    return kind(path if path != "-" else "<stdin>", spec_name, "timeout", stats=stats,
                exit_code=EXIT_TIMEOUT)


def _spec_argument(args) -> None:
    """SPEC and INSTANCE...: args.spec None when SPEC is left out before a
    puzz.link URL, a file of URLs or a pzprv3 file (each instance is then
    read by the built-in spec of its own type)."""
    args.spec, args.instances = api.split_spec(args.spec, args.instances)


def _bare_portfolio(argv) -> list:
    """``--portfolio`` followed by the spec or an instance, not by members:
    written ``--portfolio=default`` so that argparse leaves the next word alone."""
    from .backends.portfolio import looks_like_members
    argv = list(argv)
    for i, word in enumerate(argv):
        if word == "--":
            break
        if word == "--portfolio" and i + 1 < len(argv) and not looks_like_members(argv[i + 1]):
            argv[i] = "--portfolio=default"
    return argv


def _portfolio_args(args):
    """--portfolio CONFIGS: the portfolio backend, its members in --solver's place."""
    if getattr(args, "portfolio", None) is None:
        return
    given = [flag for flag, value in (("--backend", args.backend != "sat"),
                                      ("--solver", args.solver is not None),
                                      ("--connectivity", args.connectivity is not None),
                                      ("--solver-cmd", args.solver_cmd is not None)) if value]
    if given:
        raise PzcError(f"--portfolio names each member's backend, solver and connectivity "
                       f"(e.g. --portfolio glucose4:lazy,cadical195:eager); leave out "
                       f"{' and '.join(given)}")
    args.backend, args.solver = "portfolio", args.portfolio


def _load(args) -> api.SpecChoice:
    """The spec (or, SPEC left out, the built-in spec of each instance's
    type), after rejecting bad flags; in JSON mode a spec error still gives
    one object per instance."""
    try:
        _portfolio_args(args)
        _spec_argument(args)
        specs = api.SpecChoice.of(args.spec)
        api.get_backend(args.backend, args.solver, args.connectivity, args.solver_cmd)
    except PzcError as e:
        if args.format == "json":
            for path in args.instances:
                print(json.dumps(_error_result(args, path, args.spec, e).to_json()))
        raise
    return specs


def _each_instance(args, run, emit_one):
    """Load the spec, then run ``run(spec, instance, progress)`` on every
    instance of every file (SPEC left out: with the built-in spec of its
    type), with progress on a terminal; reading errors are reported per
    file, in order.  Returns the combined exit code."""
    specs = _load(args)
    codes = []
    with Display(args.quiet) as display:
        show = display.callback or api.no_progress
        if not ("-" in args.instances and _typed_in()):
            show("reading")         # not over the line someone is typing an instance on
        # (path, [(spec, instance)], the error reading them, or (the spec, its name) whose
        # reading ran out of time)
        files = []
        for path in args.instances:
            def read(path=path):
                try:
                    return specs.read(path)
                except PzcError as e:
                    return e

            def out_of_time():
                args.first_limit_given = True        # the next files' instances: whole limits
                return specs.latest, specs.latest_name

            # a huge file takes a while to read: under the first instance's limit
            files.append((path, timing.within(_time_left(args), read, out_of_time)))
        total = sum(spec is not None for _, found in files if isinstance(found, list)
                    for spec, _ in found)
        index = 0
        for path, found in files:
            if not isinstance(found, list):
                display.pause()
                if isinstance(found, PzcError):
                    spec_name = specs.spec.name if specs.spec is not None else None
                    emit_one(args, _error_result(args, path, spec_name, found))
                    codes.append(found.exit_code)
                else:
                    emit_one(args, _timeout_result(args, path, *found))
                    codes.append(EXIT_TIMEOUT)
                continue
            for k in range(len(found)):
                # an instance done is dropped with what it cached (its board's
                # edges, ...): the collections below would walk all of it again
                (spec, inst), found[k] = found[k], None
                if spec is None:         # a URL line no spec reads
                    display.pause()
                    emit_one(args, _error_result(args, inst.name, None, inst.unreadable))
                    codes.append(inst.unreadable.exit_code)
                    continue
                if index:
                    gc.collect()         # the last instance's cycles (see main)
                else:
                    # what lives on from here (imports, the spec) is never walked
                    # again: a full collection costs 1 ms, not 8 ms, per Hexiom level
                    gc.freeze()
                index += 1
                show("instance", name=inst.name, index=index, total=total)
                result = run(spec, inst, display.callback)
                display.pause()
                emit_one(args, result)
                codes.append(result.exit_code)
                # freed now: the next collection walks what lives on, and a
                # result's drawing holds the instance's whole answer
                del result, inst
    clock.leave_behind(files)        # freed by the next command or the exit: see _exit_now
    return worst_exit(codes)


def _typed_in() -> bool:
    """Standard input is a terminal (an instance typed in)."""
    try:
        return sys.stdin is not None and sys.stdin.isatty()
    except ValueError:                  # closed
        return False


def _engine_options(args, progress) -> dict:
    return dict(backend=args.backend, solver=args.solver, timeout=_instance_limit(args),
                connectivity=args.connectivity, solver_cmd=args.solver_cmd, progress=progress)


def _instance_limit(args):
    """--timeout for the next instance.  The first one's limit counts from the
    process start (interpreter, imports, reading the spec and the file), as
    the user's clock does, but leaves it at least min(S/2, 0.25 s) (a slow
    start-up on a busy machine must not time out a quick instance, nor push
    the end far past S); each later one gets the whole limit."""
    left = _time_left(args)
    args.first_limit_given = True
    return left


def _time_left(args):
    if args.timeout is None or getattr(args, "first_limit_given", False):
        return args.timeout
    return timing.left_after(args.timeout, seconds_since_start())


def seconds_since_start() -> float:
    """How long this process has run (Linux: from /proc; elsewhere from the
    import of this module)."""
    try:
        with open("/proc/self/stat") as f:
            fields = f.read().rpartition(")")[2].split()
        started = int(fields[19]) / os.sysconf("SC_CLK_TCK")     # field 22: starttime
        return max(0.0, time.clock_gettime(time.CLOCK_BOOTTIME) - started)
    except (OSError, ValueError, IndexError, AttributeError):
        return time.perf_counter() - _IMPORTED


_IMPORTED = time.perf_counter()


def cmd_solve(args) -> int:
    def run(spec, inst, progress):
        result = api.solve(spec, inst, max_steps=args.max_steps, plan_search=args.plan_search,
                           **_engine_options(args, progress))
        # JSON's "moves" are a plan's or a `show moves` line's where the spec has them
        if args.format == "moves" or args.format == "json" and result.moves is None:
            _add_tile_moves(args, inst, result)
        return result

    return _pictured(args, run, emit_moves if args.format == "moves" else emit)


def _add_tile_moves(args, inst, result):
    """The tile moves of an answer that rearranges the clues, as the result's
    moves (JSON "moves"); --format moves: an answer that does not is an error."""
    if result.status != "solved" or not result.verified:
        return                                  # no answer: its status says why
    try:
        result.moves = [m.as_json() for m in api.tile_moves(inst, result)]
    except PzcError as e:
        if args.format == "moves":
            result.error, result.exit_code = e, worst_exit([result.exit_code, e.exit_code])


def cmd_count(args) -> int:
    return _pictured(args, lambda spec, inst, progress: api.count(
        spec, inst, limit=args.limit, **_engine_options(args, progress)), emit_count)


def cmd_unique(args) -> int:
    return _pictured(args, lambda spec, inst, progress: api.unique(
        spec, inst, **_engine_options(args, progress)), emit_unique)


def cmd_deduce(args) -> int:
    return _pictured(args, lambda spec, inst, progress: api.deduce(
        spec, inst, **_engine_options(args, progress)), emit_deduce)


def _pictured(args, run, emit_one) -> int:
    """_each_instance, and with --format svg a picture of each instance
    written at the end (errors still go to standard error as they come)."""
    if args.format == "pzprv3":
        return _answer_files(args, run)
    if args.format != "svg":
        if args.output is not None:
            raise PzcError("-o/--output is for --format svg and pzprv3 (text and JSON go to "
                           "standard output)")
        return _each_instance(args, run, emit_one)
    documents = []

    def run_and_draw(spec, inst, progress):
        result = run(spec, inst, progress)
        try:
            doc = api.picture_document(spec, inst, result, solutions=getattr(args, "show", True))
        except PzcError as e:               # a board that is not drawable (exit 2)
            print(f"{inst.name}: cannot draw: {e.message}", file=sys.stderr)
            result.exit_code = worst_exit([result.exit_code, 2])
            doc = None
        if doc is not None:
            documents.append(doc)
        return result

    code = _each_instance(args, run_and_draw, _emit_errors)
    write_pictures(documents, args.output, " ".join(
        ["pzc", args.command] + ([args.spec] if args.spec is not None else [])))
    return code


def _answer_files(args, run) -> int:
    """--format pzprv3: each instance's pzprv3 file with its answer (a unique
    check's first witness), joined as convert joins them, to -o FILE or
    standard output; what has no answer is said on standard error."""
    files = []

    def run_and_write(spec, inst, progress):
        try:
            api.check_answer_file(spec)      # before solving: a spec that cannot write answers
        except PzcError as e:
            return _error_result(args, inst.name, spec.name, e)
        result = run(spec, inst, progress)
        answer = result.answer     # unique's: the first witness; deduce's: what all share
        if answer is None:
            return result
        try:
            files.append(api.write_instance(spec, inst, "pzprv3", answer))
        except PzcError as e:
            result.error, result.exit_code = e, worst_exit([result.exit_code, e.exit_code])
        if result.status == "several" and not isinstance(result, api.DeduceResult):
            print(f"{result.instance}: several solutions: the file holds the first one",
                  file=sys.stderr)
        return result

    def say(args, result):
        _emit_errors(args, result)
        if result.error is None and result.status in ("unsat", "none"):
            print(f"{result.instance}: no solution, no file written", file=sys.stderr)

    code = _each_instance(args, run_and_write, say)
    text = "\n".join(files)
    if args.output:
        _write(args.output, text)
    else:
        sys.stdout.write(text)
    return code


def _emit_errors(args, result):
    """--format svg: what the picture cannot say goes to standard error."""
    if result.error is not None:
        print(result.error.format(), file=sys.stderr)
    elif result.status == "timeout":
        print(f"{result.instance}: time limit reached", file=sys.stderr)


def write_pictures(documents: list, output: str | None, title: str):
    write_documents(documents, output, title, _write)


def cmd_explain(args) -> int:
    return _pictured(args, lambda spec, inst, progress: api.explain(
        spec, inst, backend=args.backend, solver=args.solver, timeout=_instance_limit(args),
        connectivity=args.connectivity, progress=progress), emit_explain)


def cmd_batch(args) -> int:
    """api.batch over the arguments: result lines to --out as they come, a
    progress bar and the summary on standard error."""
    _portfolio_args(args)
    _spec_argument(args)
    if args.resume and args.out in (None, "-"):
        raise PzcError("--resume reads and extends the results file: give it as --out FILE")
    done, codes = batch_task.resume(args.out) if args.resume else (set(), [])
    batch_task.Output(args.out, append=True).close()      # writable? (before any work is done)
    options = dict(backend=args.backend, solver=args.solver, connectivity=args.connectivity,
                   solver_cmd=args.solver_cmd)
    if args.task == "solve":
        options.update(max_steps=args.max_steps, plan_search=args.plan_search)
    elif args.task == "count":
        options["limit"] = args.limit
    with BatchBar(args.quiet, args.out if args.resume else None) as bar:
        results = api.batch(args.spec, args.instances, workers=args.workers, task=args.task,
                            timeout=args.timeout, scheduler=args.scheduler, done=done,
                            progress=bar.callback, **options)
        first = next(results, None)          # the files read, the spec checked
        out = batch_task.Output(args.out, append=args.resume)
        try:
            if first is not None:
                out.write(first)
                bar.error(first)
            for result in results:
                out.write(result)
                bar.error(result)
        finally:
            results.close()
            out.close()
    return worst_exit(codes + bar.codes)


def _one_instance(args):
    """(spec, instance) of dimacs's and decode's one INSTANCE (SPEC may be
    left out before it, as for solve)."""
    spec, paths = api.split_spec(args.spec, [args.instance] if args.instance is not None else [])
    if len(paths) > 1:
        raise PzcError(f"pzc {args.command} takes one INSTANCE, not {len(paths)}")
    spec, inst = api.SpecChoice.of(spec).select(paths[0])
    if inst.unreadable is not None:
        raise inst.unreadable
    return spec, inst


def cmd_dimacs(args) -> int:
    spec, inst = _one_instance(args)
    text, table = api.dimacs(spec, inst)
    _write(args.output, text)
    if args.map:
        _write(args.map, json.dumps(table, indent=1) + "\n")
    return 0


def cmd_decode(args) -> int:
    spec, inst = _one_instance(args)
    result = api.decode_model(spec, inst, args.model)
    emit(args, result)
    return result.exit_code


def _write(path, text):
    if path is None or path == "-":
        sys.stdout.write(text)
        return
    try:
        with open(path, "w") as f:
            f.write(text)
    except OSError as e:
        raise PzcError(f"cannot write {path}: {e.strerror}") from None


def _out(text="", flush=False):
    """Print a line of text output; control characters from an instance
    (terminal escape sequences) are shown escaped, not sent to the terminal."""
    print(printable(text), flush=flush)


def _emit(args, result, lines, json_object):
    """An error to standard error, then the result's JSON object or its lines."""
    if result.error is not None:
        print(result.error.format(), file=sys.stderr)
    if args.format == "json":
        _out(json.dumps(json_object()), flush=True)
        return
    for line in lines():
        _out(line)
    _out(flush=True)


def emit(args, result: api.Result):
    boards = getattr(args, "show_boards", False)
    _emit(args, result, lambda: text_output.solve_lines(result, args.command, args.stats, boards),
          lambda: result.to_json(boards=boards))


def emit_moves(args, result: api.Result):
    """--format moves: the status line, then a move a line: the tile, the cell
    it leaves, the cell it goes to (and their pixels, read from a picture)."""
    if result.error is not None:
        print(result.error.format(), file=sys.stderr)
        return
    _out(text_output.solve_lines(result, args.command, args.stats)[0])
    for i, move in enumerate(result.moves or [], 1):
        _out(f"  {i:>3}. {api.tile_move_text(move)}")
    _out(flush=True)


def emit_count(args, result: api.CountResult):
    _emit(args, result, lambda: text_output.count_lines(result, args.show),
          lambda: result.to_json(args.show))


def emit_unique(args, result: api.UniqueResult):
    _emit(args, result, lambda: text_output.unique_lines(result, args.stats), result.to_json)


def emit_deduce(args, result: api.DeduceResult):
    _emit(args, result, lambda: text_output.deduce_lines(result, args.stats), result.to_json)


def emit_explain(args, result: api.ExplainResult):
    _emit(args, result, lambda: explain_lines(result, args.stats), result.to_json)


if __name__ == "__main__":
    sys.exit(main())
