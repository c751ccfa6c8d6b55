"""Board geometry: edges are the board's own objects, and an edge never equals
the segment between the same two points, even though they hash alike."""

from __future__ import annotations

from pzc.board.geometry import Edge, Segment, SquareGrid


def test_edge_between_neighbours_is_the_boards_own_object():
    g = SquareGrid(3, 2)
    for e in g.edges():
        assert g.edge(e.a, e.b) is e and g.edge(e.b, e.a) is e
    assert g.edge((0, 1), (0, 0)) == Edge((0, 0), (0, 1))


def test_edges_segments_and_pairs_are_distinct_keys():
    a, b = (0, 0), (0, 1)
    e, s = Edge(a, b), Segment(a, b)
    assert e != s and s != e and e != (a, b) and (a, b) != s
    table = {e: "edge", s: "segment", (a, b): "pair"}
    assert len(table) == 3
    assert table[Edge(a, b)] == "edge" and table[Segment(a, b)] == "segment"
    assert table[(a, b)] == "pair"
    assert len({e, s, Edge(a, b), Segment(a, b)}) == 2


def test_boards_of_one_shape_share_their_tables():
    """Neighbours, edges, windows and graphs are built once per shape and
    shared by its boards (geometry.py), and are the same as a board of its
    own would build; other shapes and big boards keep their own."""
    from pzc.board import geometry
    from pzc.board.graphs import adjacency
    first, second = SquareGrid(6, 5), SquareGrid(6, 5)
    assert first is not second and first.edges() is second.edges()
    assert first.windows(2, 2, 1, 1) is second.windows(2, 2, 1, 1)
    assert adjacency(first.cells, first) is adjacency(list(second.cells), second)
    own = SquareGrid(6, 5, cells=[(r, c) for r in range(5) for c in range(6)])
    assert own.edges() == first.edges() and own.edges() is not first.edges()
    assert own.windows(2, 2, 1, 1) == first.windows(2, 2, 1, 1)
    assert adjacency(own.cells, own) == adjacency(first.cells, first)
    assert SquareGrid(5, 6).edges() != first.edges()
    side = int(geometry.SHARED_CELLS ** 0.5) + 1
    assert SquareGrid(side, side).cells is not SquareGrid(side, side).cells
