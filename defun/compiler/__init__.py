"""The numpy tier: a graph turned into generated Python (pruned, folded, common subexpressions
shared), and the callable that runs it and reports its errors at the user's line. It knows graphs
only through the objects it is given."""
