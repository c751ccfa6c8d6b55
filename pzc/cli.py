"""The `pzc` command: a thin shell over pzc.api."""
