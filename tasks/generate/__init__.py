"""pzc generate: puzzles with exactly one solution from a spec's `generate` lines."""
