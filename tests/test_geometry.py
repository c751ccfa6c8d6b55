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
