"""Converters: one file per Python construct, each ending in `transform(node, ctx)`.

Each converter rewrites one function scope (a gast FunctionDef or Lambda, see
`autograph.pyct.transformer`) into code that calls the runtime operators through the name `ag__`.
They run in the order given by `autograph.impl.CONVERTERS`; a converter's docstring says what it
expects the earlier ones to have done.
"""
