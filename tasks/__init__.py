"""The task layer: one home for each command's work, shared by api.py and cli.py."""
