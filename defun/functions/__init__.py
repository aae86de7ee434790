"""Compiled functions: how arguments are keyed, tracing a Python function into a FuncGraph,
ConcreteFunction (the one call path) and Function (the trace cache and retrace explanations)."""
