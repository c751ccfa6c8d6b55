"""The compiler pipeline, one module per stage, data flowing one way:

    syntax -> check -> instance -> ground -> model -> cnf | smt -> solve
           -> decode -> verify -> render
"""
