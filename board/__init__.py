"""The board: its geometry (square and hex cells, edges, lattice points),
graphs over it (adjacency, components), and the spec language's built-ins
(builtins.py gathers them; registry.py says how to add one)."""
