"""Stage: backbone.  What every solution draws alike, found in one incremental solver.

The candidates are the places of the board (its cells, or the points of a
`show grid` canvas) with the text the first solution draws there.  Each
later call rules out, all at once, the values of the variables the
candidates were read from, so the solver must change at least one of them;
a candidate whose text the new solution draws differently is open.  When no
solution is left, the candidates are what every solution draws alike.

    solution 1: v[a] = 1, v[b] = 2, v[c] = 3     candidates a:1 b:2 c:3
    block:      not (v[a] = 1 and v[b] = 2 and v[c] = 3)
    solution 2: v[a] = 1, v[b] = 3, v[c] = 2     candidates a:1 (b, c open)
    block:      not (v[a] = 1)
    unsat                                        a is 1 in every solution

Exact for the text: when the last call finds nothing, every solution gives
the variables some earlier solution's values on everything the candidates
were then read from, so it draws them alike.  A solution that changes those
variables but not the candidates' text (Fillomino's numbers stay while a
block's shape moves) takes nothing out, and the next block rules out its
values too.  Where the backend can, the solver is told to try other values
first (``Session.prefer_other``), so that each solution moves as much as it
can.  Earlier blocks stay: they only rule out solutions already seen.
Every solution is decoded and verified, as enumerate.py does.

The variables' elements the candidates were read from in the first solution
are candidates too, with the first solution's values, each block ruling them
out with the rest; one that a later solution changes drops out.  What is
left at the end is the same in every solution, so a partial answer (a
pzprv3 file's lines of the determined places) holds values, not texts: for
most genres every element a determined place reads, and no extra call; for
Fillomino's walls, only those no solution moves.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..runtime.progress import no_progress
from .answer_data import AnswerData
from .enumerate import kept_at_timeout, next_answer
from .render import cell_tokens


@dataclass(eq=False)
class Backbone:
    """What a backbone search found so far (filled as it goes, so that a
    caller keeps it when the time limit stops the search)."""
    tokens: dict = field(default_factory=dict)    # place -> its text in the first solution
    open: set = field(default_factory=set)        # places two solutions draw differently
    constant: set = field(default_factory=set)    # places read from no variable (clues)
    solutions: int = 0             # solutions seen
    complete: bool = False         # no other solution changes a candidate: they are decided
    timed_out: bool = False
    first: AnswerData | None = field(default=None, repr=False)   # the first solution as data
    # (name, key) -> value: the shown variables' elements the determined
    # places were read from that are the same in every solution (once complete)
    elements: dict = field(default_factory=dict)

    def place_state(self, place) -> str:
        """'determined', 'open' (two solutions differ there) or 'undecided'
        (the search stopped before it knew)."""
        if place in self.open:
            return "open"
        if self.complete or place in self.constant:
            return "determined"
        return "undecided"


def backbone(ground, session, show, progress=no_progress,
             out: Backbone | None = None) -> Backbone:
    """The places of ``show`` (a show statement) that every solution draws
    the same; ``progress("solution", count=n)`` as each solution comes.  At
    the time limit what was found so far is kept, ``timed_out`` set."""
    return kept_at_timeout(lambda o: _search(ground, session, show, progress, o),
                           Backbone() if out is None else out)


def _search(ground, session, show, progress, out):
    spec, instance, model = ground.spec, ground.instance, ground.model
    outcome, answer = next_answer(ground, session, out)
    if answer is None:
        return
    out.first = AnswerData(spec, instance, answer)
    first_reads = {}
    out.tokens = cell_tokens(spec, instance, answer, show, reads=first_reads)
    out.constant = {p for p, r in first_reads.items() if not r}
    out.solutions = 1
    progress("solution", count=1)
    candidates = set(out.tokens) - out.constant
    variables = {}
    first = {nk: outcome.assignment[variable(model, variables, nk)]
             for r in first_reads.values() for nk in r}
    elements = set(first)
    reads = first_reads
    while candidates:
        elements &= {nk for p in candidates for nk in first_reads[p]}
        # the values this solution gives everything the candidates were read
        # from, and the first solution's values of the elements still unchanged
        read = sorted({nk for p in candidates for nk in reads[p]} | elements,
                      key=lambda nk: variable(model, variables, nk).uid)
        values = {variables[nk]: first[nk] if nk in elements
                  else outcome.assignment[variables[nk]] for nk in read}
        session.prefer_other(values)
        session.block(values)
        outcome, answer = next_answer(ground, session, out)
        if answer is None:
            break
        out.solutions += 1
        progress("solution", count=out.solutions)
        reads = {}
        tokens = cell_tokens(spec, instance, answer, show, reads=reads)
        moved = {p for p in candidates if tokens[p] != out.tokens[p]}
        out.open |= moved
        candidates -= moved
        elements = {nk for nk in elements if outcome.assignment[variables[nk]] == first[nk]}
    else:
        out.complete = True
    if out.complete:
        # in the variables' order (a set's order changes with string hashing)
        out.elements = {nk: first[nk] for nk in sorted(elements, key=lambda nk: variables[nk].uid)}


def variable(model, cache: dict, name_key):
    """The model variable of a spec variable's element (name, key)."""
    var = cache.get(name_key)
    if var is None:
        var = cache[name_key] = model.spec_vars[name_key[0]][name_key[1]]
    return var
