"""The `pzc` command: a thin shell over pzc.api (parse flags, call, print, exit)."""

from __future__ import annotations

import argparse
import json
import sys

from . import __version__, api
from .encoder.check import summary
from .encoder.render import move_text
from .errors import PzcError

DESCRIPTION = """\
pzc compiles grid logic puzzles, written as short spec files, into SAT (PySAT)
or SMT (Z3) problems, solves them and prints the solved board, verified.

exit codes: 0 all solved; 1 an instance has no solution; 2 bad usage, spec or
instance; 3 time limit reached; 4 verification failed (a bug in pzc)."""

SOLVE_EPILOG = """\
SPEC is a built-in spec name (see `pzc specs`) or a path to a .pz file.
INSTANCE is a file ('-' reads standard input); a file may hold several
instances, reported as path#1, path#2, ...

examples:
  pzc solve sudoku puzzles.txt
  pzc solve hexiom level38.txt --format json
  pzc solve my.pz board.txt --backend smt --timeout 60"""


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # usage errors exit 2 with a plain message
        self.print_usage(sys.stderr)
        print(f"pzc: error: {message}", file=sys.stderr)
        sys.exit(api.EXIT_USAGE)


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
    s.add_argument("spec", metavar="SPEC", help="built-in spec name or path to a .pz file")
    s.add_argument("instances", metavar="INSTANCE", nargs="+", help="instance file, or - for stdin")
    s.add_argument("--backend", choices=["sat", "smt"], default="sat",
                   help="sat: CNF solved by PySAT (default); smt: Z3")
    s.add_argument("--solver", metavar="NAME", default=None,
                   help="PySAT solver name for --backend sat (default cadical195; "
                        "also glucose4, kissat404, minisat22, ...)")
    s.add_argument("--connectivity", choices=["lazy", "eager"], default=None,
                   help="how connected(...) is encoded for --backend sat: lazy cuts added "
                        "while solving (default) or a self-contained rank encoding; "
                        "the smt backend is always eager")
    s.add_argument("--timeout", metavar="S", type=_positive, default=None,
                   help="time limit in seconds per instance (exit 3 when reached)")
    s.add_argument("--format", choices=["text", "json"], default="text",
                   help="text (default) or one JSON object per instance per line")
    s.add_argument("--stats", action="store_true",
                   help="text format: also print variables, clauses and times")
    s.add_argument("--debug", action="store_true", help="show Python tracebacks on internal errors")

    c = sub.add_parser("check", help="parse and check a spec",
                       description="Parse and check a spec; print a one-line summary or the errors.")
    c.add_argument("spec", metavar="SPEC", help="built-in spec name or path to a .pz file")
    c.add_argument("--debug", action="store_true", help=argparse.SUPPRESS)

    sp = sub.add_parser("specs", help="list the built-in specs",
                        description="List the built-in specs with a one-line description each.")
    sp.add_argument("--debug", action="store_true", help=argparse.SUPPRESS)
    return p


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return {"solve": cmd_solve, "check": cmd_check, "specs": cmd_specs}[args.command](args)
    except PzcError as e:
        print(e.format(), file=sys.stderr)
        return e.exit_code
    except KeyboardInterrupt:
        print("pzc: interrupted", file=sys.stderr)
        return 130
    except Exception as e:  # a crash is a bug; say so plainly
        if getattr(args, "debug", False):
            raise
        print(f"pzc: internal error (a bug in pzc): {type(e).__name__}: {e}\n"
              "run again with --debug for the traceback", file=sys.stderr)
        return api.EXIT_VERIFY


def cmd_specs(args) -> int:
    names = api.builtin_specs()
    width = max(map(len, names))
    for name in names:
        spec = api.load_spec(name)
        print(f"{name:<{width}}  {spec.description}")
    return 0


def cmd_check(args) -> int:
    spec = api.load_spec(args.spec)
    print(summary(spec))
    return 0


def cmd_solve(args) -> int:
    try:
        spec = api.load_spec(args.spec)
        from .backends import get_backend
        get_backend(args.backend, args.solver, args.connectivity)   # reject bad flags early
    except PzcError as e:
        if args.format == "json":   # still one object per instance, each saying why
            for path in args.instances:
                print(json.dumps(api.Result(path if path != "-" else "<stdin>", args.spec,
                                            "error", error=e).to_json()))
        raise
    codes = []
    for path in args.instances:
        try:
            instances = api.load_instances(spec, path)
        except PzcError as e:
            result = api.Result(path if path != "-" else "<stdin>", spec.name, "error",
                                error=e, exit_code=e.exit_code)
            emit(args, result)
            codes.append(e.exit_code)
            continue
        for inst in instances:
            result = api.solve(spec, inst, backend=args.backend, solver=args.solver,
                               timeout=args.timeout, connectivity=args.connectivity)
            emit(args, result)
            codes.append(result.exit_code)
    return api.worst_exit(codes)


_STATUS_TEXT = {"solved": "solved", "unsat": "no solution", "timeout": "time limit reached",
                "error": "error"}


def emit(args, result: api.Result):
    if result.error is not None:
        print(result.error.format(), file=sys.stderr)
    if args.format == "json":
        print(json.dumps(result.to_json()), flush=True)
        return
    status = _STATUS_TEXT[result.status]
    if result.status == "solved":
        status += ", verified" if result.verified else ", VERIFICATION FAILED"
    print(f"{result.instance}: {status}")
    if args.stats and result.stats:
        st = result.stats
        print(f"  {st['backend']}/{st['solver']}: {st['variables']} variables, "
              f"{st['clauses']} clauses; compile {st['compile_s']:.3f} s, "
              f"solve {st['solve_s']:.3f} s")
    for rows in (result.grid, result.drawing):
        if rows:
            for row in rows:
                print("  " + row)
            if rows is result.grid and result.drawing:
                print()
    if result.moves:
        for i, move in enumerate(result.moves, 1):
            print(f"  {i:>3}. {move_text(move)}")
    print(flush=True)


if __name__ == "__main__":
    sys.exit(main())
