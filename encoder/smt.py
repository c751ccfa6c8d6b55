"""Stage: smt.  Model -> SMT-LIB2 text over Booleans and pseudo-Boolean terms.

Each bool variable is a Bool; each finite-domain variable is one Bool per value
with ``((_ pbeq 1 1 ... 1) ...)`` for exactly one, except that an int variable
over a range of more than INT_RANGE_MIN values is one bounded Int (a
100,001-value domain is then one constant, not 100,001 Booleans); constraints
that mention such a variable are written in integer arithmetic.  Linear
constraints become Z3's pseudo-Boolean atoms (``_ pbge``/``_ pble``/``_ pbeq``)
with positive coefficients, or an integer sum of ``ite`` terms when a
coefficient, bound or their total passes 2^31 - 1 (Z3 reads pb parameters as
32-bit ints).  Shared subformulas are named once with ``define-fun``.  The
whole text is handed to Z3 in one call: building terms one by one from Python
costs more than solving the small levels.

    (declare-const v3_0 Bool) ... (assert ((_ pbeq 2 1 1 1) f0 f1 f2))
"""

from __future__ import annotations

from ..runtime import clock
from ..runtime.limits import Z3_BYTES_PER_CHAR, MemoryBudget
from .model import Cases, Model, Node, Var

INT_RANGE_MIN = 64     # wider int ranges are Ints: Z3 reads a Bool per value slowly


class SmtWriter:
    def __init__(self, model: Model):
        self.model = model
        self.lines = []
        self.names = {}          # Var -> name (bool) or {value: name}
        self.defined = {}        # node uid -> name
        self.counter = 0
        self.ints = {}           # Var -> its Int's name, for wide int ranges
        self.partitions = {}     # Partition uid -> its elements' group sizes (Int names)

    def declare(self, var: Var):
        if var.domain is None:
            name = f"b{var.index}"
            self.lines.append(f"(declare-const {name} Bool)")
            self.names[var] = name
            return
        dom = var.domain
        if _is_wide_range(var):
            name = self.names[var] = self.ints[var] = f"i{var.index}"
            self.lines.append(f"(declare-const {name} Int)")
            self.lines.append(f"(assert (and (<= {_int(min(dom))} {name}) "
                              f"(<= {name} {_int(max(dom))})))")
            return
        if len(dom) == 1:
            self.names[var] = {dom[0]: "true"}
            return
        names = {v: f"x{var.index}_{i}" for i, v in enumerate(dom)}
        for n in names.values():
            self.lines.append(f"(declare-const {n} Bool)")
        self.names[var] = names
        self.lines.append(f"(assert {_pb('pbeq', 1, [(1, n) for n in names.values()])})")

    def value(self, term, v) -> str:
        if type(term) is Var:
            if term in self.ints:
                return f"(= {self.ints[term]} {_int(v)})" if v in term.domain else "false"
            return self.names[term].get(v, "false")
        if type(term) is Cases:
            for cond, w in term.pairs:
                if w == v:
                    return self.term(cond)
            return "false"
        return "true" if term == v else "false"

    def domain(self, term):
        return term.domain if type(term) in (Var, Cases) else (term,)

    def term(self, node: Node) -> str:
        k = node.kind
        if k == "true":
            return "true"
        if k == "false":
            return "false"
        if k == "bvar":
            return self.names[node.args[0]]
        if k == "eq":
            return self.value(*node.args)
        if k == "not" and node.args[0].kind in ("bvar", "eq"):
            return f"(not {self.term(node.args[0])})"
        hit = self.defined.get(node.uid)
        if hit is not None:
            return hit
        if k == "not":
            text = f"(not {self.term(node.args[0])})"
        elif k == "or" and any(x.kind == "eq" and x.args[0] in self.ints for x in node.args):
            text = "(or " + " ".join(self._or_parts(node.args)) + ")"
        elif k in ("and", "or"):
            text = f"({k} " + " ".join(self.term(x) for x in node.args) + ")"
        elif k == "iff":
            text = f"(= {self.term(node.args[0])} {self.term(node.args[1])})"
        elif k == "lin":
            text = self.linear(*node.args)
        elif k == "same" and self._arithmetic(node.args):
            text = "(= " + " ".join(self.int_term(t) for t in node.args) + ")"
        elif k == "same":
            a, b = node.args
            values = dict.fromkeys(list(self.domain(a)) + list(self.domain(b)))
            text = "(and " + " ".join(f"(= {self.value(a, v)} {self.value(b, v)})"
                                      for v in values) + ")"
        elif k == "distinct":
            text = self.distinct(node.args)
        elif k == "connected":
            text = self.connected(*node.args)
        elif k == "size":
            part, x, op, bound = node.args
            text = f"({op} {self.group_sizes(part)[x]} {_int(bound)})"
        elif k == "samesize":
            sizes = self.group_sizes(node.args[0])
            text = f"(= {sizes[node.args[1]]} {sizes[node.args[2]]})"
        else:  # pragma: no cover
            raise AssertionError(k)
        name = f"d{self.counter}"
        self.counter += 1
        self.lines.append(f"(define-fun {name} () Bool {text})")
        self.defined[node.uid] = name
        return name

    def linear(self, items, op, bound) -> str:
        """sum(coef * atom) op bound as a PB atom with positive coefficients
        (in integer arithmetic when it mentions an Int)."""
        if any(atom in self.ints for _, atom in items if type(atom) is Var):
            terms = " ".join(f"(* {_int(c)} {self.int_term(atom)})" for c, atom in items)
            return f"({'=' if op == '=' else op} (+ 0 {terms}) {_int(bound)})"
        weighted = []
        for c, atom in items:
            if type(atom) is Node:
                weighted.append((c, self.term(atom)))
            else:
                for v in atom.domain:
                    if c * v:
                        weighted.append((c * v, self.value(atom, v)))
        terms = []
        for w, t in weighted:
            if w < 0:   # w*t = w - w*(not t)
                bound -= w
                terms.append((-w, f"(not {t})"))
            else:
                terms.append((w, t))
        if not terms:
            ok = {"<=": 0 <= bound, ">=": 0 >= bound, "=": bound == 0}[op]
            return "true" if ok else "false"
        if abs(bound) + sum(w for w, _ in terms) > PB_LIMIT:
            # Z3 reads a pb parameter as a 32-bit int and wraps it silently:
            # an integer sum of 0/1 terms is exact at any size
            total = " ".join(f"(ite {t} {w} 0)" for w, t in terms)
            return f"({'=' if op == '=' else op} (+ 0 {total}) {_int(bound)})"
        kind = {"<=": "pble", ">=": "pbge", "=": "pbeq"}[op]
        return _pb(kind, bound, terms)

    def connected(self, elems, sel, adj, tops=None) -> str:
        """Ranks as Ints: every selected element except the root (one that is
        always selected, else the first selected) has a selected neighbour of
        smaller rank; with roots (``tops``: "chosen and a root"), every
        selected element that is not one."""
        k = self.counter
        self.counter += 1
        s = [self.term(x) for x in sel]
        ranks = [f"r{k}_{i}" for i in range(len(elems))]
        for r in ranks:
            self.lines.append(f"(declare-const {r} Int)")
        forced = [i for i, x in enumerate(s) if x == "true"]
        parts = []
        earlier = "false"
        roots = [self.term(x) for x in tops] if tops is not None else None
        for i in range(len(elems)):
            near = " ".join(f"(and {s[j]} (< {ranks[j]} {ranks[i]}))" for j in adj[i])
            if roots is not None:
                premise = f"(and {s[i]} (not {roots[i]}))"
            elif forced:
                premise = None if i == forced[0] else s[i]
            else:
                premise = f"(and {s[i]} {earlier})"
                if i < len(elems) - 1:
                    earlier = self._name(f"(or {earlier} {s[i]})")
            if premise is not None:
                parts.append(f"(=> {premise} (or false {near}))")
        return "(and true " + " ".join(parts) + ")"

    def group_sizes(self, part) -> list:
        """An Int per element of a Partition, its group's size (0 when it is
        not selected), asserted once: each selected element has a group id, an
        element's index or that of a joined neighbour with the same id and a
        smaller rank, so that ids name the groups; a size counts its id."""
        found = self.partitions.get(part.uid)
        if found is not None:
            return found
        k = self.counter
        self.counter += 1
        n = len(part.elements)
        sel = [self.term(x) for x in part.sel]
        ids = [f"g{k}_{i}" for i in range(n)]
        ranks = [f"q{k}_{i}" for i in range(n)]
        sizes = [f"z{k}_{i}" for i in range(n)]
        for name in ids + ranks + sizes:
            self.lines.append(f"(declare-const {name} Int)")
        below = [[] for _ in range(n)]
        for (i, j), node in part.joins:
            joined = self.term(node)
            self.lines.append(f"(assert (=> {joined} (= {ids[i]} {ids[j]})))")
            for a, b in ((i, j), (j, i)):
                below[a].append(f"(and {joined} (= {ids[b]} {ids[a]}) (< {ranks[b]} {ranks[a]}))")
        for (i, j), node in part.joins:
            self.lines.append(f"(assert (=> {self.term(node)} (= {sizes[i]} {sizes[j]})))")
        for i in range(n):
            self.lines.append(f"(assert (and (<= 0 {ids[i]}) (< {ids[i]} {n})))")
            self.lines.append(f"(assert (=> {sel[i]} (or (= {ids[i]} {i}) {' '.join(below[i])})))")
            count = " ".join(f"(ite (and {sel[j]} (= {ids[j]} {i})) 1 0)" for j in range(n))
            self.lines.append(f"(assert (=> (and {sel[i]} (= {ids[i]} {i})) (= {sizes[i]} (+ 0 {count}))))")
            self.lines.append(f"(assert (=> (not {sel[i]}) (= {sizes[i]} 0)))")
        self.partitions[part.uid] = sizes
        return sizes

    def _name(self, text) -> str:
        name = f"d{self.counter}"
        self.counter += 1
        self.lines.append(f"(define-fun {name} () Bool {text})")
        return name

    def _or_parts(self, args) -> list:
        """The disjuncts, with `x = v` over an Int gathered into intervals:
        `x > 5` on 0..999999 is one interval, not a million equalities."""
        values, parts = {}, []
        for x in args:
            if x.kind == "eq" and x.args[0] in self.ints:
                values.setdefault(self.ints[x.args[0]], []).append(x.args[1])
            else:
                parts.append(self.term(x))
        for name, vs in values.items():
            vs.sort()
            start = 0
            for i in range(1, len(vs) + 1):
                if i == len(vs) or vs[i] != vs[i - 1] + 1:
                    lo, hi = vs[start], vs[i - 1]
                    parts.append(f"(= {name} {_int(lo)})" if lo == hi else
                                 f"(and (<= {_int(lo)} {name}) (<= {name} {_int(hi)}))")
                    start = i
        return parts

    def _arithmetic(self, terms) -> bool:
        """Terms with an Int among them, all numeric: compared as integers."""
        return (any(type(t) is Var and t in self.ints for t in terms)
                and all(type(t) in (Var, Cases) and t.numeric for t in terms))

    def int_term(self, term) -> str:
        """An int-valued atom as an Int term: an Int, a bool as 0/1, or a
        choice among the values of a finite-domain term."""
        if type(term) is Node:
            return f"(ite {self.term(term)} 1 0)"
        if type(term) is Var and term in self.ints:
            return self.ints[term]
        pairs = [(self.value(term, v), v) for v in term.domain]
        text = _int(pairs[-1][1])
        for cond, v in reversed(pairs[:-1]):
            text = f"(ite {cond} {_int(v)} {text})"
        return text

    def distinct(self, terms) -> str:
        if self._arithmetic(terms):
            return "(distinct " + " ".join(self.int_term(t) for t in terms) + ")"
        values = {}
        for t in terms:
            for v in self.domain(t):
                values.setdefault(v, []).append(self.value(t, v))
        full = len(values) == len(terms)
        parts = [_pb("pbeq" if full else "pble", 1, [(1, x) for x in lits])
                 for lits in values.values()]
        return "(and " + " ".join(parts) + ")"


def _is_wide_range(var: Var) -> bool:
    dom = var.domain
    return (len(dom) > INT_RANGE_MIN and var.numeric
            and max(dom) - min(dom) + 1 == len(dom))      # (values are distinct)


PB_LIMIT = 2**31 - 1      # the largest pb coefficient, bound or total Z3 reads right


def _int(n) -> str:
    return str(n) if n >= 0 else f"(- {-n})"


def _pb(kind, bound, terms) -> str:
    coefs = " ".join(str(c) for c, _ in terms)
    args = " ".join(t for _, t in terms)
    return f"((_ {kind} {bound} {coefs}) {args})"


def to_smtlib(model: Model):
    """(SMT-LIB2 text, Var -> Bool name(s)) for the model's constraints."""
    text, writer = start_smtlib(model)
    return text, writer.names


def start_smtlib(model: Model):
    """The model's SMT-LIB2 text and the writer, kept to write more later."""
    w = SmtWriter(model)
    for var in model.vars:
        w.declare(var)
    chars, largest = 0, (0, None)        # the rule with the longest text, for an error
    memory = MemoryBudget(model.source)
    def check_memory():
        memory.statement = largest[1]
        memory.require(chars * Z3_BYTES_PER_CHAR,
                       f"{chars:,} characters of SMT-LIB text in Z3")

    for i, (rule, node) in enumerate(model.constraints + model.implied):
        if not i & 1023:
            clock.check()            # cheap; the alarm (runtime/clock.py) stops the rest
            check_memory()           # reads /proc: not per rule
        start = len(w.lines)
        w.lines.append(f"(assert {w.term(node)})")
        size = sum(map(len, w.lines[start:]))
        chars += size
        if size > largest[0]:
            largest = (size, rule)
    check_memory()
    return "\n".join(w.lines), w


def more_smtlib(writer: SmtWriter, variables, nodes) -> str:
    """SMT-LIB2 text for more variables and constraints (a plan's next step,
    or its goal); it names the earlier Bools but no earlier define-fun, so it
    parses on its own given the earlier declarations."""
    writer.lines = []
    writer.defined = {}
    for var in variables:
        writer.declare(var)
    for node in nodes:
        writer.lines.append(f"(assert {writer.term(node)})")
    return "\n".join(writer.lines)
