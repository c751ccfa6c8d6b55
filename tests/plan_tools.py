"""What the move-puzzle tests share: the ways a plan is searched, and a
simulator of Asteroid Escape's rules."""

from collections import Counter

# each backend's SAT deepening alone, and the state search alone
# (backends/states.py); left to pzc (plan_search auto) the state search
# answers these small plans, so the SAT encodings are tested by name
ENGINES = {"sat": dict(backend="sat", plan_search="sat"),
           "smt": dict(backend="smt", plan_search="sat"),
           "states": dict(plan_search="states")}


class Asteroid:
    """One challenge under the file's rules: a 3x3 board (reading order, 0 the
    hole); piece p covers the 1s of its 5x5 blocker grid laid with the top left
    at (3r, 3c) of an 11x11 grid; no grid cell is covered twice.  Challenge 60
    also checks the sliding piece one and two grid cells along its way against
    the resting pieces, and its goal needs rows 9-10, columns 3, 4, 6, 7 free."""

    EXIT = {(y, x) for y in (9, 10) for x in (3, 4, 6, 7)}

    def __init__(self, challenge, wizard=None):
        """``wizard``: the rules of challenge 60 (default: for that challenge only)."""
        self.ship = challenge["ship_piece"]
        self.wizard = challenge["id"] == 60 if wizard is None else wizard
        self.shape = {int(p): [(i, j) for i in range(5) for j in range(5) if grid[i][j] == 1]
                      for p, grid in challenge["blockers"].items()}
        self.start = tuple(x for row in challenge["start"] for x in row)

    def cover(self, piece, y, x):
        return [(y + i, x + j) for i, j in self.shape[piece]]

    def at_rest(self, board, skip=None):
        used = Counter()
        for k, piece in enumerate(board):
            if piece and k != skip:
                used.update(self.cover(piece, 3 * (k // 3), 3 * (k % 3)))
        return used

    def legal(self, board):
        return max(self.at_rest(board).values(), default=0) <= 1

    def exit_clear(self, board):
        return not set(self.at_rest(board)) & self.EXIT

    def done(self, board):
        return board[7] == self.ship and (not self.wizard or self.exit_clear(board))

    def slide(self, board, src, dst):
        """The board after the piece at src slides into the hole at dst, or
        None when the rules forbid it."""
        (sr, sc), (dr, dc) = divmod(src, 3), divmod(dst, 3)
        assert board[dst] == 0 and board[src] != 0 and abs(sr - dr) + abs(sc - dc) == 1
        if self.wizard:
            resting = self.at_rest(board, skip=src)
            for k in (1, 2):
                if any(u in resting for u in self.cover(board[src], 3 * sr + k * (dr - sr),
                                                        3 * sc + k * (dc - sc))):
                    return None
        nxt = list(board)
        nxt[dst], nxt[src] = board[src], 0
        nxt = tuple(nxt)
        return nxt if self.legal(nxt) else None

    def successors(self, board):
        hole = board.index(0)
        hr, hc = divmod(hole, 3)
        for r, c in ((hr - 1, hc), (hr + 1, hc), (hr, hc - 1), (hr, hc + 1)):
            if 0 <= r < 3 and 0 <= c < 3:
                nxt = self.slide(board, 3 * r + c, hole)
                if nxt is not None:
                    yield nxt

    def hole_move(self, board, axis, direction):
        """The file's move format: the hole moves along an axis, the piece
        there slides into it."""
        hr, hc = divmod(board.index(0), 3)
        r, c = (hr + direction, hc) if axis == 0 else (hr, hc + direction)
        assert 0 <= r < 3 and 0 <= c < 3
        return self.slide(board, 3 * r + c, 3 * hr + hc)

    def replay(self, moves):
        """The boards pzc's moves lead through (start first), each slide allowed."""
        boards = [self.start]
        assert self.legal(self.start)
        for m in moves:
            board = boards[-1]
            src, dst = 3 * m["from"][0] + m["from"][1], 3 * m["to"][0] + m["to"][1]
            assert m["piece"] == str(board[src]), (m, board)
            boards.append(self.slide(board, src, dst))
            assert boards[-1] is not None, (m, board)
        return boards
