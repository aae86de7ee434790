"""Graphs: Operation and its tensors, Graph, FuncGraph (the one capture point), name scopes and
control dependencies, and the text and DOT views of a graph."""
