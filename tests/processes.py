"""Which processes are still there (Linux: /proc), for the tests that kill a
parent and check that none of its children is left running."""

from __future__ import annotations

import os


def holding(marker: str, part: str = "cmdline") -> list:
    """The processes whose ``part`` (/proc/PID/cmdline or environ) holds ``marker``."""
    found = []
    for pid in os.listdir("/proc"):
        try:
            with open(f"/proc/{pid}/{part}", "rb") as f:
                if marker.encode() in f.read():
                    found.append(int(pid))
        except (OSError, ValueError):
            pass
    return found
