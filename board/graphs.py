"""Graphs over board elements: adjacency for connectivity, and components.

Connectivity constraints range over cells, cell edges or lattice segments; two
elements are adjacent when they are neighbouring cells, edges sharing a cell,
or segments sharing a dot.
"""

from __future__ import annotations

from .geometry import Edge, Segment


def adjacency(elements, geometry):
    """{element: tuple of adjacent elements} restricted to ``elements``,
    or None when the elements are not all of one graph kind.  The graph of
    all the board's cells, edges or segments is built once per board shape
    (geometry.py shares it between boards; never changed by its users)."""
    if geometry is not None and elements:
        kind = type(elements[0])
        whole = (geometry.cells if kind is tuple else geometry.edges() if kind is Edge else
                 geometry.segments() if kind is Segment and hasattr(geometry, "segments")
                 else None)
        if whole is not None and len(elements) == len(whole) and tuple(elements) == whole:
            return geometry.shared(("graph", kind), lambda: _build(elements, geometry))
    return _build(elements, geometry)


def _build(elements, geometry):
    elements = list(elements)
    present = set(elements)
    if all(type(x) is tuple for x in elements):
        if geometry is None or not all(x in geometry for x in elements):
            return None
        return {x: tuple(y for y in geometry.neighbours(x) if y in present) for x in elements}
    if all(type(x) in (Edge, Segment) for x in elements):
        by_end = {}
        for x in elements:
            by_end.setdefault(x[0], []).append(x)
            by_end.setdefault(x[1], []).append(x)
        # y != x, told in C: another object, of another kind or other ends
        ne = tuple.__ne__
        return {x: tuple(dict.fromkeys(y for end in x for y in by_end[end]
                                       if y is not x and (type(y) is not type(x) or ne(y, x))))
                for x in elements}
    return None


def components(selected, adjacent) -> list:
    """Connected components (lists, in order of discovery) of the selected elements."""
    seen = set()
    out = []
    chosen = set(selected)
    for start in selected:
        if start in seen:
            continue
        seen.add(start)
        comp = [start]
        i = 0
        while i < len(comp):
            for y in adjacent[comp[i]]:
                if y in chosen and y not in seen:
                    seen.add(y)
                    comp.append(y)
            i += 1
        out.append(comp)
    return out


def lines(links) -> tuple | None:
    """The paths and loops that links (pairs of points) draw, each as its
    points in order: (paths, loops), or None when a point has more than two
    links (a network, not lines).

    A path runs from its smaller end to the other; a loop starts at its
    smallest point and goes first to the smaller of that point's two
    neighbours, and its last point links back to the first.  Both lists are
    in the order of their first points."""
    beside = {}
    for a, b in links:
        beside.setdefault(a, []).append(b)
        beside.setdefault(b, []).append(a)
    if any(len(nbrs) > 2 for nbrs in beside.values()):
        return None
    seen = set()

    def walk(start, first):
        out = [start]
        seen.add(start)
        prev, here = start, first
        while here is not None and here not in seen:
            out.append(here)
            seen.add(here)
            prev, here = here, next((p for p in beside[here] if p != prev), None)
        return out

    paths = [walk(p, beside[p][0]) for p in sorted(beside)
             if len(beside[p]) == 1 and p not in seen]
    loops = [walk(p, min(beside[p])) for p in sorted(beside) if p not in seen]
    return paths, loops
