"""Runtime helpers every layer uses, and that use nothing of pzc's:

  errors       located errors (file:line:col, the line, a caret) and the exit codes
  clock        the time limit: one deadline per instance, checked by every stage
  deep_stack   a deep stack for the API and the command line (deep specs recurse deep)
  progress     progress events, and the line that shows them on a terminal (rich)
  limits       bounds on sizes and the memory budget (located errors, not crashes)
  gc_pause     the cyclic collector paused while a pipeline builds
  pysat_calls  PySAT's native calls leave Ctrl-C to Python (no jump out of C++)
"""
