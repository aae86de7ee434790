"""The generic source-to-source toolkit AutoGraph is built on.

Nothing here knows about tensors or about `defun`: these modules parse a Python function into a gast
tree (`parser`), annotate nodes (`anno`), build new code from real-Python templates (`templates`), pick
fresh names (`naming`), map generated code back to the user's lines (`origin`), analyse which names a
block reads, writes and keeps alive (`analysis`), and load the result as a function (`loader`).
"""
