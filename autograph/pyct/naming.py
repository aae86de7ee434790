"""Fresh symbols for generated code.

Generated helpers (branch functions, guard flags, loop state) must never shadow a name the user's code
can see, so the namer reserves every name the function mentions and every name of its globals and
closure, and hands out `base`, `base_1`, `base_2`, ... skipping reserved and already-issued ones.
"""
import gast


def names_in(node):
    """Every identifier a tree mentions: names, function/class names, parameters, attributes' roots."""
    found = set()
    for n in gast.walk(node):
        if isinstance(n, gast.Name):
            found.add(n.id)
        elif isinstance(n, (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef)):
            found.add(n.name)
        elif isinstance(n, (gast.Global, gast.Nonlocal)):
            found.update(n.names)
        elif isinstance(n, gast.alias):
            found.add((n.asname or n.name).split('.')[0])
    return found


class Namer:
    """Issues names unused by the user's function and by each other."""

    def __init__(self, reserved=()):
        self.reserved = set(reserved)

    def new_symbol(self, base):
        candidate, n = base, 0
        while candidate in self.reserved:
            n += 1
            candidate = '%s_%d' % (base, n)
        self.reserved.add(candidate)
        return candidate
