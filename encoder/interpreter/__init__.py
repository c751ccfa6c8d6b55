"""The interpreter shared by ground and verify: names, binders, calls.

  evaluate     the Interpreter: scopes, binders, built-in and user calls
  closures     each AST node compiled once into a closure
  operators    operators on evaluated values (plain or symbolic)
  values       PSet and the static types the checker and built-ins speak
  aggregates   count, sum, product, min, max, distinct, connected, ...
  plain        the checker's own closures for plain values (verify's fast path)
"""
