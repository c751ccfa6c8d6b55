"""The compiler: one module per stage, data flowing one way.

    syntax -> check -> instance -> ground (unroll, undo for plans) -> model
           -> cnf (connectivity) | smt | dimacs -> (a backend solves) -> decode
           -> verify -> render                     enumerate: count and unique

builtins/ holds the language's built-in functions (one module per concept);
interpreter/ the evaluator that ground and verify share.  Product features
built on the compiler (explain, generate, pictures, batch) live in tasks/.
"""
