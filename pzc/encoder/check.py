"""Stage: check.  Static checks of a parsed spec (placeholder, filled in below)."""

def check(spec):
    return spec
