"""Puzzles for pzc serve's tests (tests/test_serve.py, test_serve_browser.py)
and bench/serve.py."""

# unique puzzles of four genres (made by `pzc generate ... --format url`)
UNIQUE = ["https://puzz.link/p?nurikabe/5/5/g5k2o1k3g",
          "https://puzz.link/p?akari/6/6/h.jcal.m8.bi",
          "https://puzz.link/p?slither/6/6/hdg3b11bicgc11bg88d",
          "https://puzz.link/p?mashu/6/6/000092f00310"]
SEVERAL = "https://puzz.link/p?akari/6/6/"          # no clue: many ways to light it
ONE_CLUE_SHORT = "https://puzz.link/p?akari/6/6/h.jco.m8.bi"   # UNIQUE[1] less its 0: open in part
NONE = "https://puzz.link/p?akari/3/3/ckc"          # two 2s in opposite corners of 3x3
BLANK_3X3 = "3 3\n...\n...\n...\n"                 # a text instance for a pasted spec
