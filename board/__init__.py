"""The board: its geometry (square and hex cells, edges, lattice points) and
graphs over it (adjacency, components)."""
