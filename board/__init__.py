"""The board: its geometry (square and hex cells, edges, lattice points) and
graphs over it (adjacency, components).  Nothing here knows the spec language;
the language's built-ins over the board are in encoder/builtins/."""
