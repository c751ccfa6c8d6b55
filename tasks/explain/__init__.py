"""pzc explain: why an instance has no solution, or which clue would make it unique."""
