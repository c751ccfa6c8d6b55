"""The task layer: one home for each command's work, shared by api.py and cli.py.

  options    Options: backend, solver, timeout, ... (one object for every task)
  results    Result, CountResult, UniqueResult, ExplainResult, Generated
  timing     within(): the instance clock every task runs under
  specs      load_spec (each layer checks its own lines), the built-in specs
  solving    solve, count, unique, dimacs, decode
  text       results as the lines the command prints
  explain/   pzc explain          generate/  pzc generate
  pictures/  --format svg         batch      pzc batch
"""
