"""An explanation as text (the core, the answer, or two solutions and the
suggested clue) and as a picture (explain --format svg)."""

from __future__ import annotations

from ...runtime.errors import plural
from ..pictures import draw
from ..results import ExplainResult
from ..text import STATUS_TEXT, answer_lines, witness_lines


def explain_lines(result: ExplainResult, stats: bool = False) -> list:
    """The lines `pzc explain` prints for one instance."""
    out = []
    if result.status == "unsat":
        clues, rules = result.core_clues, result.core_rules
        if not clues and not rules:
            out.append(f"{result.instance}: no solution, whatever the clues and rules: the "
                       f"variables' domains (and values computed from all the clues) leave none")
        else:
            out.append(f"{result.instance}: no solution: these {plural(len(clues), 'clue')} and "
                       f"{plural(len(rules), 'rule instance')} already have no solution "
                       f"(dropping any one makes it solvable):")
        out += [f"  {note}" for note in core_notes(result)]
    elif result.status == "unique":
        out.append(f"{result.instance}: exactly one solution, "
                   + ("verified" if result.solved.verified else "VERIFICATION FAILED"))
        out += answer_lines(result.solved)
    elif result.status == "several":
        out.append(f"{result.instance}: not unique: two solutions differ")
        out += witness_lines(result.several)
        s = result.suggestion
        if s is None:
            out.append("  no clue can be suggested: no cell without a clue takes, from the "
                       "first solution, a clue the second lacks that rules it out")
        else:
            where = f" ({s['where']})" if s["where"] else f" ({s['at']})"
            then = ("then the puzzle has exactly one solution" if s["unique"]
                    else "it rules out the second solution")
            out.append(f"  suggestion: add clue {s['token']} at ({s['cell'][0]}, "
                       f"{s['cell'][1]}){where}; {then}")
    else:
        out.append(f"{result.instance}: {STATUS_TEXT.get(result.status, result.status)}")
    if stats and result.stats and result.status != "error":
        st = result.stats
        line = f"{st.get('backend')}/{st.get('solver')}"
        if st.get("variables") is not None:
            line += (f": {st['variables']} variables, {st['clauses']} clauses, "
                     f"{st['members']} clues and rule instances, {st['calls']} solver calls")
        if st.get("explain_s") is not None:
            line += f"; {st['explain_s']:.3f} s"
        out.append("  " + line)
    return out


def core_notes(result: ExplainResult) -> list:
    """One line per member of the core: where it is written and what it is."""
    notes = [f"{c['at']}: clue ({c['cell'][0]}, {c['cell'][1]}) = {c['token']}"
             for c in result.core_clues]
    notes += [f"{r['at']}: {'implied rule' if r['implied'] else 'rule'} {r['rule']}"
              + (f", {r['shown']}" if r["shown"] else "") for r in result.core_rules]
    return notes


HEADINGS = {"unsat": "no solution, explained", "unique": "exactly one solution",
            "several": "two solutions differ", "timeout": "time limit reached",
            "none": "no solution"}


def explain_document(spec, instance, result: ExplainResult) -> draw.Document | None:
    """explain --format svg: the core's clues filled red and the cells its rule
    instances name outlined, the members listed below; the answer when unique;
    two solutions, where they differ and the suggested clue when several.
    None for an instance that could not be read."""
    if result.status == "error":
        return None
    heading = f"{instance.name}: {HEADINGS.get(result.status, result.status)}"
    if result.status == "unsat":
        clue_cells = [tuple(c["cell"]) for c in result.core_clues]
        rule_cells = [tuple(c) for r in result.core_rules for c in r["cells"]]
        return draw.Document(heading, svg=draw.board_svg(
            spec, instance, None, highlight=clue_cells, involved=rule_cells,
            notes=core_notes(result), title=heading))
    if result.status == "unique" and result.solved is not None:
        return draw.Document(heading, svg=draw.board_svg(spec, instance, result.solved.picture,
                                                         title=heading))
    if result.status == "several" and result.several is not None:
        sols = result.several.found.solutions[:2]
        s = result.suggestion
        suggest = [tuple(s["cell"])] if s is not None else []
        differ = [tuple(c) for c in result.several.differ]
        figs = [draw.board_figure(spec, instance, draw.solution_picture(spec, sol.cells),
                                  marks=differ, suggest=suggest if k == 0 else ())
                for k, sol in enumerate(sols)]
        captions = ["first" + (f" (add clue {s['token']} at ({s['cell'][0]}, {s['cell'][1]}))"
                               if s is not None else ""), "second (differences marked)"]
        return draw.Document(heading, svg=draw.side_by_side(figs, captions, heading))
    return draw.Document(heading, svg=draw.board_svg(spec, instance, None, title=heading))
