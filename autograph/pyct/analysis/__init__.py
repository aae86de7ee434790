"""Static analyses over one function's gast tree.

`scopes` says which simple names a piece of code reads and writes (respecting nested scopes);
`liveness` marks which names are still needed after each compound statement and at the top of each
loop body; `reaching` marks which names are defined on every path reaching a statement or a read.
The control-flow converter combines them: a loop variable is a name the loop writes that is live
around the loop; a branch output is a name a branch writes that is live after the `if`.
"""
