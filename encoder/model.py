"""Stage: model, the IR between grounding and the backends.

A Model holds finite-domain decision variables and constraints over them.

  * ``Var``: a bool (``domain is None``) or a finite domain of values (ints or
    symbols), e.g. ``v[(0, 0)] : 1..9``.
  * ``Node``: a Boolean formula, hash-consed so that equal formulas are one
    object.  Kinds: true, false, bvar (a bool Var), eq (Var = value), not, and,
    or, iff, lin (sum of coef*atom compared with a constant), same (two
    finite-domain terms equal), distinct.  Formulas are kept in negation normal
    form as far as the kinds allow.
  * ``Cases``: a finite-domain term whose value is picked by exclusive,
    exhaustive conditions, from ``if c then x else y`` and products.
  * ``LinExpr``: an integer expression sum(coef * atom) + const, where an atom
    is a bool Node (0 or 1), an int Var or a Cases term.

Grounding ``n[c] = count(d in neighbours(c): full[d])`` on a cell with three
neighbours gives

    lin( (1, n[c]), (-1, bvar full[d1]), (-1, bvar full[d2]), (-1, bvar full[d3]) ; = 0 )
"""

from __future__ import annotations

import json
from itertools import count as _counter


class Domain(tuple):
    """A variable's values in order, with ``in`` as a set lookup: atoms are
    looked up by value, and a domain may hold a million values."""

    def __contains__(self, value):
        try:
            members = self._members
        except AttributeError:
            members = self._members = frozenset(self)
        try:
            return value in members
        except TypeError:          # an unhashable value is in no domain
            return False


class Var:
    """A decision variable of the ground model."""

    __slots__ = ("uid", "index", "name", "key", "domain", "numeric")

    def __init__(self, uid, index, name, key, domain, numeric=None):
        self.uid = uid
        self.index = index
        self.name = name
        self.key = key
        self.domain = domain          # None: bool; else a tuple of values
        if numeric is None:
            numeric = domain is not None and all(isinstance(v, int) and not isinstance(v, bool)
                                                 for v in domain)
        self.numeric = numeric

    @property
    def is_bool(self) -> bool:
        return self.domain is None

    def label(self) -> str:
        if not self.key:
            return self.name
        inner = ", ".join(value_text(k) for k in self.key)
        return f"{self.name}[{inner}]"

    def __repr__(self) -> str:
        return self.label()


def value_text(value) -> str:
    if type(value).__name__ in ("Edge", "Segment"):
        return repr(value)
    if isinstance(value, tuple):
        return "(" + ", ".join(value_text(v) for v in value) + ")"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)   # quotes and backslashes escaped
    return str(value)


class Node:
    """A hash-consed Boolean formula (compare with ``is``)."""

    __slots__ = ("kind", "args", "uid")

    def __init__(self, kind, args, uid):
        self.kind = kind
        self.args = args
        self.uid = uid

    def __repr__(self) -> str:
        k, a = self.kind, self.args
        if k in ("true", "false"):
            return k
        if k == "bvar":
            return a[0].label()
        if k == "eq":
            return f"{a[0].label()}={value_text(a[1])}"
        if k == "not":
            return f"not {a[0]!r}"
        if k in ("and", "or"):
            return "(" + f" {k} ".join(repr(x) for x in a) + ")"
        if k == "lin":
            terms, op, bound = a
            return "(" + " + ".join(f"{c}*{t!r}" for c, t in terms) + f" {op} {bound})"
        return f"{k}{a!r}"


class Cases:
    """A finite-domain term: value v where condition c holds, for (c, v) in pairs."""

    __slots__ = ("pairs", "uid", "numeric")

    def __init__(self, pairs, uid):
        self.pairs = pairs
        self.uid = uid
        self.numeric = all(isinstance(v, int) and not isinstance(v, bool) for _, v in pairs)

    @property
    def domain(self):
        return tuple(v for _, v in self.pairs)

    def __repr__(self) -> str:
        return "cases(" + ", ".join(f"{c!r}: {value_text(v)}" for c, v in self.pairs) + ")"


class Partition:
    """The groups of ``groupsize(x in S: body via ...)``: the elements, their
    selection formulas (the body) and, for each pair that can be joined
    (i < j), the formula that joins them (a static neighbour: the two
    selections; a `via ... where` join: its condition too).  Interned: every
    groupsize over the same elements, body and joins shares one, whatever its
    seed.  ``anchors`` collects the (element, op, number) comparisons made
    on its sizes while grounding: the encoders size their tables by them."""

    __slots__ = ("elements", "sel", "joins", "adjacent", "uid", "anchors", "plain_sizes")

    def __init__(self, elements, sel, joins, uid):
        self.elements = elements          # a tuple
        self.sel = sel                    # a Node per element
        self.joins = joins                # ((i, j), Node) pairs, i < j, never FALSE
        adjacent = [[] for _ in elements]
        for (i, j), _ in joins:
            adjacent[i].append(j)
            adjacent[j].append(i)
        self.adjacent = tuple(tuple(a) for a in adjacent)
        self.uid = uid
        self.anchors = set()
        self.plain_sizes = None

    def __repr__(self) -> str:
        return f"groups#{self.uid}"


class GroupSize:
    """``groupsize(...)`` of the element ``index`` of a Partition: a number that
    is only compared (with a number or another groupsize of its partition)."""

    __slots__ = ("part", "index")

    def __init__(self, part, index):
        self.part = part
        self.index = index

    def __repr__(self) -> str:
        return f"groupsize({self.part!r}, {self.index})"


FD_TYPES = (Var, Cases)


def is_fd(x) -> bool:
    return type(x) is Cases or (type(x) is Var and x.domain is not None)


class LinExpr:
    """sum(coef * atom) + const over bool Nodes, int Vars and numeric Cases."""

    __slots__ = ("terms", "const")

    def __init__(self, terms=None, const=0):
        self.terms = terms if terms is not None else {}
        self.const = const

    def __repr__(self) -> str:
        parts = [f"{c}*{a!r}" for a, c in self.terms.items()]
        return " + ".join(parts + [str(self.const)])


def _by_uid(item):
    return item[1].uid


class Model:
    """The ground model: variables, interned formulas and the rules' constraints."""

    def __init__(self):
        self.vars = []
        self._uid = _counter(1)
        self._table = {}
        # atoms[var.index]: {value: the interned `var = value` node}, and True -> the
        # bvar node of a bool var: the hot lookups, kept apart from the table
        # (and not on the Var, which would make a cycle for the collector)
        self.atoms = []
        self.TRUE = self._new("true", ())
        self.FALSE = self._new("false", ())
        self.constraints = []      # (rule statement, Node), one entry per rule
        self.implied = []          # the same for implied rules
        self.spec_vars = {}        # spec var name -> {key: Var}
        self.source = None         # the spec's Source, to point errors at its rules
        self.memory = None         # a MemoryBudget while grounding (runtime/limits.py)
        self._graphs = {}          # (elements, id of adjacency) -> (it, as index lists)

    # ------------------------------------------------------------ atoms

    def new_var(self, name, key, domain) -> Var:
        if domain is not None and type(domain) is not Domain:
            domain = Domain(domain)
        last = self.vars[-1] if self.vars else None
        # variables of one declaration share their domain tuple: and whether it is numeric
        numeric = last.numeric if last is not None and last.domain is domain else None
        var = Var(next(self._uid), len(self.vars), name, key, domain, numeric)
        self.vars.append(var)
        self.atoms.append({})
        return var

    def _new(self, kind, args) -> Node:
        key = (kind, args)
        node = self._table.get(key)
        if node is None:
            uid = next(self._uid)
            node = Node(kind, args, uid)
            self._table[key] = node
            if not uid & 0xFFFF and self.memory is not None:
                self.memory.require(0, f"{len(self._table):,} formulas so far")
        return node

    def const(self, value: bool) -> Node:
        return self.TRUE if value else self.FALSE

    def bvar(self, var: Var) -> Node:
        atoms = self.atoms[var.index]
        node = atoms.get(True)
        if node is None:
            node = atoms[True] = Node("bvar", (var,), next(self._uid))
        return node

    def eq(self, var: Var, value) -> Node:
        """The atom `var = value` (false if value is outside the domain)."""
        atoms = self.atoms[var.index]
        node = atoms.get(value)
        if node is None:
            dom = var.domain
            # (value is hashable: atoms.get took it; the domain's set read directly)
            members = dom.__dict__.get("_members") if type(dom) is Domain else None
            if not (value in members if members is not None else value in dom):
                return self.FALSE
            if len(dom) == 1:
                return self.TRUE
            uid = next(self._uid)
            node = atoms[value] = Node("eq", (var, value), uid)
            if not uid & 0xFFFF and self.memory is not None:
                self.memory.require(0, f"{uid:,} atoms and formulas so far")
        return node

    def eq_each(self, variables, value) -> list:
        """[self.eq(var, value) for var in variables], the domain checked
        once for the variables that share it (a declaration's variables do):
        `colour[c] = k` over every cell, for each label."""
        out = []
        append = out.append
        atoms_of = self.atoms
        uids = self._uid
        last, ok = self, None         # last: no domain yet (self is none)
        for var in variables:
            atoms = atoms_of[var.index]
            node = atoms.get(value)
            if node is None:
                dom = var.domain
                if dom is not last:
                    last = dom
                    ok = self.eq(var, value)      # made here, or FALSE/TRUE for the domain
                    if ok.kind == "eq":
                        ok = None                 # an atom like this for every variable
                    append(ok or atoms[value])
                    continue
                if ok is not None:
                    append(ok)
                    continue
                uid = next(uids)
                node = atoms[value] = Node("eq", (var, value), uid)
                if not uid & 0xFFFF and self.memory is not None:
                    self.memory.require(0, f"{uid:,} atoms and formulas so far")
            append(node)
        return out

    def cases(self, pairs) -> object:
        """A Cases term (or a constant) from (condition, value) pairs."""
        merged = {}
        for cond, value in pairs:
            if cond is self.FALSE:
                continue
            merged.setdefault(value, []).append(cond)
        if len(merged) == 1:
            return next(iter(merged))
        items = tuple((self.or_(cs), v) for v, cs in merged.items())
        key = ("cases", items)
        found = self._table.get(key)
        if found is None:
            found = Cases(items, next(self._uid))
            self._table[key] = found
        return found

    def fd_pairs(self, term):
        """(condition, value) pairs of a finite-domain term."""
        if type(term) is Var:
            return [(self.eq(term, v), v) for v in term.domain]
        return term.pairs

    # ------------------------------------------------------------ logic

    def not_(self, x: Node) -> Node:
        k = x.kind
        if k == "true":
            return self.FALSE
        if k == "false":
            return self.TRUE
        if k == "not":
            return x.args[0]
        if k == "and":
            return self.or_([self.not_(y) for y in x.args])
        if k == "or":
            return self.and_([self.not_(y) for y in x.args])
        if k == "iff":
            return self.iff(x.args[0], self.not_(x.args[1]))
        if k == "lin":
            terms, op, bound = x.args
            if op == "<=":
                return self._lin(terms, ">=", bound + 1)
            if op == ">=":
                return self._lin(terms, "<=", bound - 1)
        return self._new("not", (x,))

    def _junction(self, kind, xs) -> Node:
        unit, zero = (self.TRUE, self.FALSE) if kind == "and" else (self.FALSE, self.TRUE)
        seen = {}
        stack = list(xs)
        stack.reverse()
        pop = stack.pop
        while stack:
            x = pop()
            if x is unit:
                continue
            if x is zero:
                return zero
            if x.kind == kind:
                stack.extend(reversed(x.args))
                continue
            if x.uid not in seen:
                seen[x.uid] = x
        if not seen:
            return unit
        for x in seen.values():
            if x.kind == "not" and x.args[0].uid in seen:
                return zero
        if len(seen) == 1:
            return next(iter(seen.values()))
        return self._new(kind, tuple(map(seen.__getitem__, sorted(seen))))

    def and_(self, xs) -> Node:
        return self._junction("and", xs)

    def or_(self, xs) -> Node:
        return self._junction("or", xs)

    def implies(self, a: Node, b: Node) -> Node:
        return self.or_([self.not_(a), b])

    def iff(self, a: Node, b: Node) -> Node:
        if a.kind in ("true", "false"):
            return b if a is self.TRUE else self.not_(b)
        if b.kind in ("true", "false"):
            return a if b is self.TRUE else self.not_(a)
        if a is b:
            return self.TRUE
        k = a.kind
        if k == "not":
            opposite = a.args[0] is b
        elif k in ("and", "or", "iff", "lin"):
            opposite = self.not_(a) is b
        else:               # not_(a) would be the node not a: is b that node (not made here)?
            opposite = b.kind == "not" and b.args[0] is a
        if opposite:
            return self.FALSE
        if a.uid > b.uid:
            a, b = b, a
        return self._new("iff", (a, b))

    def ite(self, c: Node, a: Node, b: Node) -> Node:
        if c is self.TRUE:
            return a
        if c is self.FALSE:
            return b
        return self.and_([self.or_([self.not_(c), a]), self.or_([c, b])])

    # ------------------------------------------------------------ arithmetic

    def lin(self, x) -> LinExpr:
        """Any int-valued thing as a LinExpr (a fresh object the caller may change)."""
        if type(x) is LinExpr:
            return LinExpr(dict(x.terms), x.const)
        if type(x) is int:
            return LinExpr({}, x)
        if type(x) in (Var, Cases):
            return LinExpr({x: 1}, 0)
        if type(x) is Node:   # a bool counted as 0/1
            if x is self.TRUE:
                return LinExpr({}, 1)
            if x is self.FALSE:
                return LinExpr({}, 0)
            return LinExpr({x: 1}, 0)
        raise TypeError(x)

    def add(self, a, b, sign: int = 1) -> LinExpr:
        out = self.lin(a)
        b = self.lin(b)
        terms = out.terms
        for atom, c in b.terms.items():
            c = terms.get(atom, 0) + sign * c
            if c:
                terms[atom] = c
            else:
                terms.pop(atom, None)
        out.const += sign * b.const
        return out

    def scale(self, a, k: int) -> LinExpr:
        a = self.lin(a)
        if k == 0:
            return LinExpr({}, 0)
        return LinExpr({t: c * k for t, c in a.terms.items()}, a.const * k)

    def mul(self, a, b) -> LinExpr:
        a, b = self.lin(a), self.lin(b)
        if not a.terms:
            return self.scale(b, a.const)
        if not b.terms:
            return self.scale(a, b.const)
        out = LinExpr({}, a.const * b.const)
        for t, c in a.terms.items():
            out = self.add(out, self.scale(LinExpr({t: c}), b.const))
        for t, c in b.terms.items():
            out = self.add(out, self.scale(LinExpr({t: c}), a.const))
        for t1, c1 in a.terms.items():
            for t2, c2 in b.terms.items():
                out = self.add(out, self.scale(self._atom_product(t1, t2), c1 * c2))
        return out

    def _atom_product(self, t1, t2):
        if type(t1) is Node and type(t2) is Node:
            return self.and_([t1, t2])
        p1 = [(t1, 1), (self.not_(t1), 0)] if type(t1) is Node else self.fd_pairs(t1)
        p2 = [(t2, 1), (self.not_(t2), 0)] if type(t2) is Node else self.fd_pairs(t2)
        return self.cases([(self.and_([c1, c2]), v1 * v2) for c1, v1 in p1 for c2, v2 in p2])

    def select(self, cond: Node, a, b):
        """`if cond then a else b` for int, symbol or finite-domain values."""
        if cond is self.TRUE:
            return a
        if cond is self.FALSE:
            return b
        if type(a) is Node and type(b) is Node:
            return self.ite(cond, a, b)
        if isinstance(a, (LinExpr,)) or isinstance(b, LinExpr):
            diff = self.add(a, b, -1)
            return self.add(b, self.mul(cond, diff))
        pa = self.fd_pairs(a) if is_fd(a) else [(self.TRUE, a)]
        pb = self.fd_pairs(b) if is_fd(b) else [(self.TRUE, b)]
        nc = self.not_(cond)
        return self.cases([(self.and_([cond, c]), v) for c, v in pa] +
                          [(self.and_([nc, c]), v) for c, v in pb])

    def bounds(self, e: LinExpr):
        lo = hi = e.const
        for atom, c in e.terms.items():
            if type(atom) is Node:
                vals = (0, c)
            else:
                dom = atom.domain
                vals = (c * min(dom), c * max(dom))
            lo += min(vals)
            hi += max(vals)
        return lo, hi

    # ------------------------------------------------------------ comparisons

    def compare(self, op: str, a, b) -> Node:
        """a op b for op in = != < <= > >=, a and b int-valued."""
        if op in ("=", "!=") and type(a) in (Var, Cases) and type(b) in (Var, Cases):
            node = self.same(a, b)
            return node if op == "=" else self.not_(node)
        if type(b) is int and type(a) is LinExpr and op in ("=", "<=", ">="):
            # a count of bools against a constant (`count(...) = 2`): the
            # generic path's copies and bounds skipped, the same node made
            terms = a.terms
            n = len(terms)
            if n > 1:
                for t, c in terms.items():
                    if c != 1 or type(t) is not Node:
                        break
                else:
                    bound = b - a.const
                    if op == "<=":
                        if n <= bound:
                            return self.TRUE
                        if bound < 0:
                            return self.FALSE
                    elif op == ">=":
                        if bound <= 0:
                            return self.TRUE
                        if n < bound:
                            return self.FALSE
                    elif not 0 <= bound <= n:
                        return self.FALSE
                    return self._lin(tuple(sorted([(1, t) for t in terms], key=_by_uid)),
                                     op, bound)
        d = self.add(a, b, -1)
        bound = -d.const
        terms = d.terms
        if op == "<":
            op, bound = "<=", bound - 1
        elif op == ">":
            op, bound = ">=", bound + 1
        if not terms:
            return self.const(_holds(0, op, bound))
        if len(terms) == 1:
            (atom, c), = terms.items()
            if type(atom) is Node:
                at0, at1 = _holds(0, op, bound), _holds(c, op, bound)
                if at0 == at1:
                    return self.const(at0)
                return atom if at1 else self.not_(atom)
            return self.member(atom, [v for v in atom.domain if _holds(c * v, op, bound)])
        if op == "!=":
            return self.not_(self.compare("=", a, b))
        lo, hi = self.bounds(LinExpr(terms, 0))
        if op == "<=":
            if hi <= bound:
                return self.TRUE
            if lo > bound:
                return self.FALSE
        elif op == ">=":
            if lo >= bound:
                return self.TRUE
            if hi < bound:
                return self.FALSE
        elif not lo <= bound <= hi:
            return self.FALSE
        items = tuple(sorted(((c, t) for t, c in terms.items()), key=lambda ct: ct[1].uid))
        return self._lin(items, op, bound)

    def _lin(self, items, op, bound) -> Node:
        return self._new("lin", (items, op, bound))

    def member(self, term, values) -> Node:
        """The finite-domain term takes one of the values."""
        if type(term) is Var:
            if len(values) == 1:
                return self.eq(term, next(iter(values)))
            wanted = set(values)
            chosen = [v for v in term.domain if v in wanted]
            if len(chosen) == len(term.domain):     # every value: always true
                return self.TRUE
            return self.or_([self.eq(term, v) for v in chosen])
        wanted = set(values)
        return self.or_([c for c, v in term.pairs if v in wanted])

    def equal(self, a, b) -> Node:
        """a = b where at least one side is symbolic (bool, int or symbol)."""
        if type(a) is Node or type(b) is Node:
            return self.iff(a if type(a) is Node else self.const(a),
                            b if type(b) is Node else self.const(b))
        if type(a) is LinExpr or type(b) is LinExpr:
            return self.compare("=", a, b)
        if is_fd(a) and is_fd(b):
            return self.same(a, b)
        if is_fd(a):
            return self.member(a, [b])
        return self.member(b, [a])

    def same(self, a, b) -> Node:
        if a is b:
            return self.TRUE
        da, db = a.domain, b.domain
        if da != db and set(da).isdisjoint(db):      # (domains are never empty)
            return self.FALSE
        if a.uid > b.uid:
            a, b = b, a
        return self._new("same", (a, b))

    def distinct(self, items) -> Node:
        # bools take part as terms over {false, true}
        items = [self.cases([(x, True), (self.not_(x), False)]) if type(x) is Node else x
                 for x in items]
        consts = [x for x in items if not is_fd(x)]
        if len(set(consts)) != len(consts):
            return self.FALSE
        terms = [x for x in items if is_fd(x)]
        if not terms:
            return self.TRUE
        parts = []
        if consts:
            cs = set(consts)
            parts = [self.not_(self.member(t, cs)) for t in terms]
        if len(terms) > 1:
            parts.append(self._new("distinct", tuple(terms)))
        return self.and_(parts)

    # ------------------------------------------------------------ connectivity

    def has_connectivity(self) -> bool:
        """Whether a connected(...) constraint was made (the SAT backend's lazy
        and eager encodings differ only then)."""
        return bool(self._graphs)

    def connected(self, elements, chosen, adjacent, roots=None) -> Node:
        """The chosen elements form one connected group of the adjacency graph;
        with ``roots`` (a formula per element), every group holds an element
        that is chosen and a root.

        Elements never chosen are dropped; the node holds the elements, their
        selection formulas, the adjacency as index lists and, with roots, the
        formulas "chosen and a root" (else None)."""
        never = self.FALSE
        if roots is not None or never in chosen or False in chosen or True in chosen:
            elems, sel, tops = [], [], []          # (a Node equals only itself)
            for k, (x, c) in enumerate(zip(elements, chosen)):
                if c is False or c is never:
                    continue
                elems.append(x)
                sel.append(self.const(c) if type(c) is bool else c)
                if roots is not None:
                    r = roots[k]
                    tops.append(self.and_([sel[-1], self.const(r) if type(r) is bool else r]))
        else:                           # every element's formula a Node, none FALSE
            elems, sel = elements, chosen
        if roots is not None:
            if all(t is self.TRUE for t in tops):      # (no element at all, too)
                return self.TRUE
            if len(elems) == 1:
                return self.or_([self.not_(sel[0]), tops[0]])
        elif len(elems) <= 1:
            return self.TRUE
        elems, sel = tuple(elems), tuple(sel)
        # the same elements come back for every label of a puzzle: share the
        # graph (the adjacency kept beside it, so that its id stays its own)
        known = self._graphs.get((elems, id(adjacent)))
        if known is None:
            index = {x: k for k, x in enumerate(elems)}
            adj = tuple(tuple(index[y] for y in adjacent[x] if y in index) for x in elems)
            self._graphs[elems, id(adjacent)] = (adjacent, adj)
        else:
            adj = known[1]
        return self._new("connected", (elems, sel, adj, tuple(tops) if roots is not None else None))

    # ------------------------------------------------------------ group sizes

    def partition(self, elements, sel, joins) -> Partition:
        """The interned Partition of ``elements`` (a tuple), their selection
        Nodes and the join Node of each pair (i, j), i < j (FALSE ones left
        out)."""
        joins = tuple(sorted((p, n) for p, n in joins.items() if n is not self.FALSE))
        key = ("partition", elements, tuple(sel), joins)
        found = self._table.get(key)
        if found is None:
            found = self._table[key] = Partition(elements, tuple(sel), joins, next(self._uid))
        return found

    def size_compare(self, op: str, a, b) -> Node | None:
        """a op b where a or b is a GroupSize and the other a number, a
        finite-domain term or (= and != only) a GroupSize of the same
        partition; None for any other pair (the caller reports it)."""
        flip = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "=": "=", "!=": "!="}
        if type(a) is not GroupSize:
            a, b, op = b, a, flip[op]
        if type(b) is GroupSize:
            if b.part is not a.part or op not in ("=", "!="):
                return None
            i, j = sorted((a.index, b.index))
            node = self.TRUE if i == j else self._new("samesize", (a.part, i, j))
            return node if op == "=" else self.not_(node)
        if type(b) in (Var, Cases) and b.numeric and op in ("=", "!="):
            node = self.or_([self.and_([when, self.size_compare("=", a, v)])
                             for when, v in self.fd_pairs(b)])
            return node if op == "=" else self.not_(node)
        if type(b) is not int:
            return None
        if op == "!=":
            return self.not_(self.size_compare("=", a, b))
        if op in ("<", ">"):
            op, b = ("<=", b - 1) if op == "<" else (">=", b + 1)
        part, i = a.part, a.index
        most = len(part.elements)
        if op == "<=" and b >= most or op == ">=" and b <= 0:
            return self.TRUE
        if b < 0 or b > most and op != "<=":
            return self.FALSE
        if b == 0 or (op == ">=" and b == 1):
            return part.sel[i] if b else self.not_(part.sel[i])
        part.anchors.add((i, op, b))
        return self._new("size", (part, i, op, b))

    # ------------------------------------------------------------ renaming

    def rename(self, x, varmap: dict, memo: dict):
        """``x`` (a Node, Cases, Var or a tuple of them) with each Var in
        ``varmap`` replaced: a formula grounded once for time step 0 serves
        every step (encoder/unroll.py).  ``memo`` caches by uid per varmap."""
        t = type(x)
        if t is Var:
            return varmap.get(x, x)
        if t is Node:
            if not x.args:
                return x
            found = memo.get(x.uid)
            if found is None:
                if x.kind == "bvar":          # atoms are interned on their variable
                    found = self.bvar(varmap.get(x.args[0], x.args[0]))
                elif x.kind == "eq":
                    found = self.eq(varmap.get(x.args[0], x.args[0]), x.args[1])
                else:
                    found = self._new(x.kind, self._rename_args(x.args, varmap, memo))
                memo[x.uid] = found
            return found
        if t is Cases:
            found = memo.get(x.uid)
            if found is None:
                pairs = self._rename_args(x.pairs, varmap, memo)
                key = ("cases", pairs)
                found = self._table.get(key)
                if found is None:
                    found = Cases(pairs, next(self._uid))
                    self._table[key] = found
                memo[x.uid] = found
            return found
        if t is tuple:
            return self._rename_args(x, varmap, memo)
        return x

    def _rename_args(self, args, varmap, memo):
        out = []
        for a in args:
            t = type(a)
            if t is Var or t is Node or t is Cases or t is tuple:
                a = self.rename(a, varmap, memo)
            out.append(a)
        return tuple(out)

    # ------------------------------------------------------------ summary

    def stats(self) -> dict:
        atoms = sum(len(a) for a in self.atoms)
        return {"vars": len(self.vars), "nodes": len(self._table) + atoms}


def conjuncts(rules):
    """Every formula a rule states outright: the rules' nodes and, through
    `and`, their parts.  ``rules``: (rule, node) pairs."""
    for _, node in rules:
        stack = [node]
        while stack:
            x = stack.pop()
            if x.kind == "and":
                stack.extend(x.args)
            else:
                yield x


def _holds(value: int, op: str, bound: int) -> bool:
    if op == "<=":
        return value <= bound
    if op == ">=":
        return value >= bound
    if op == "=":
        return value == bound
    if op == "!=":
        return value != bound
    if op == "<":
        return value < bound
    return value > bound
