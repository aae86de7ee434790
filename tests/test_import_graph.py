"""The layers of DESIGN.md, checked on the source: the import graph of defun/ and autograph/, built
with `ast` from every import statement (at module level or inside a function alike), has no cycle,
and the op tables in defun/ops/ import only the registry, dispatch, the tensor types and the
utilities below them, never graphs, the executor, autodiff, functions or control flow. The bottom
layer imports only itself; graphs, the executor and autodiff never import control flow; AutoGraph's
runtime never imports the face `defun`; and no module of ours is imported inside a function.

An import of a package's submodule (`from defun import nest`, `import defun.ops.math.exports`) is an edge to
that submodule; Python's implicit import of the parent package is not an edge (the face
`defun/__init__.py` imports nearly everything, and a submodule never needs it).
"""
import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
PACKAGES = ('defun', 'autograph')

# What defun/ops/ may import from defun: the registry, dispatch, the tensor types and utilities.
OPS_MAY_IMPORT = frozenset(['defun.core.registry', 'defun.core.dispatch', 'defun.core.tensor', 'defun.core.dtypes',
                            'defun.core.value_conversion', 'defun.core.shapes', 'defun.core.nest', 'defun.core.errors',
                            'defun.core.error_helpers',  # errors' message helpers (split from it)
                            'defun.core.context', 'defun.core.names'])  # names: a leaf below context


def _module_files():
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob('*.py')):
            parts = path.relative_to(ROOT).with_suffix('').parts
            if parts[-1] == '__init__':
                yield '.'.join(parts[:-1]), path, True
            else:
                yield '.'.join(parts), path, False


MODULES = {name: (path, is_package) for name, path, is_package in _module_files()}


def _resolve(module, level, current, is_package):
    if not level:
        return module
    base = current.split('.')
    base = base if is_package else base[:-1]
    base = base[:len(base) - (level - 1)]
    return '.'.join(base + ([module] if module else []))


def _imports(name):
    """The modules of defun/ and autograph/ that module `name` imports (a set of module names)."""
    path, is_package = MODULES[name]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(node.module, node.level, name, is_package)
            # `from package import submodule` imports the submodule; other names come from `base`.
            targets = [f'{base}.{a.name}' if f'{base}.{a.name}' in MODULES else base
                       for a in node.names]
        else:
            continue
        found.update(t for t in targets if t in MODULES and t != name)
    return found


GRAPH = {name: _imports(name) for name in MODULES}


def _cycles():
    """Every strongly connected component with more than one module (Tarjan), or a self-loop."""
    index, low, stack, on_stack, components = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(GRAPH[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                components.append(sorted(component))

    for v in sorted(GRAPH):
        if v not in index:
            visit(v)
    return components


def test_the_graph_sees_the_packages():
    assert {'defun', 'defun.ops.math.exports', 'defun.control_flow.while_ops', 'autograph.impl'} <= set(MODULES)
    assert 'defun.control_flow' in GRAPH['autograph.operators.control_flow']
    assert 'autograph.impl' in GRAPH['defun.functions.function']


def test_no_import_cycle():
    assert _cycles() == []


@pytest.mark.parametrize('name', sorted(n for n in MODULES if n.startswith('defun.ops.')))
def test_op_tables_import_only_the_layers_below(name):
    upward = sorted(m for m in GRAPH[name]
                    if not m.startswith('defun.ops') and m not in OPS_MAY_IMPORT)
    assert upward == [], f'{name} imports {upward}: op tables must stay below graphs and autodiff'


@pytest.mark.parametrize('name', sorted(n for n in MODULES if n.startswith('autograph')))
def test_autograph_never_imports_the_face(name):
    assert 'defun' not in GRAPH[name], f'{name} imports the package face `defun`'


@pytest.mark.parametrize('name', sorted(n for n in MODULES
                                        if n.startswith(('autograph.pyct', 'autograph.converters'))))
def test_the_autograph_toolkit_and_converters_never_import_defun(name):
    assert not [m for m in GRAPH[name] if m.split('.')[0] == 'defun']


def test_the_core_imports_autograph_only_in_function_and_the_face():
    importers = sorted(n for n in MODULES if n.split('.')[0] == 'defun'
                       and any(m.split('.')[0] == 'autograph' for m in GRAPH[n]))
    assert importers == ['defun', 'defun.functions.function']


# The bottom layer (DESIGN.md: the registry and dispatch over context, tensors, dtypes, shapes,
# nest and errors): it imports only itself, so it never reaches the graphs or the op tables.
BOTTOM = frozenset(['defun.core.registry', 'defun.core.dispatch', 'defun.core.context', 'defun.core.tensor',
                    'defun.core.value_conversion', 'defun.core.dtypes', 'defun.core.shapes', 'defun.core.nest',
                    'defun.core.errors', 'defun.core.error_helpers', 'defun.core.names', 'defun.core.dimension',
                    'defun.core.op_schema'])  # op_schema: the registry's TF signatures
# Graphs, the executor and autodiff: below control flow, which builds on them.
BELOW_CONTROL_FLOW = frozenset(['defun.graphs.operation', 'defun.graphs.graph', 'defun.graphs.funcgraph',
                                'defun.compiler.folding', 'defun.compiler.executor', 'defun.compiler.keys',
                                'defun.compiler.graph_callable',
                                'defun.autodiff.backprop', 'defun.autodiff.tape', 'defun.autodiff.gradients',
                                'defun.autodiff.gradient_graph'])


@pytest.mark.parametrize('name', sorted(BOTTOM))
def test_the_bottom_layer_imports_only_itself(name):
    assert sorted(GRAPH[name] - BOTTOM) == [], f'{name} imports above the bottom layer'


@pytest.mark.parametrize('name', sorted(BELOW_CONTROL_FLOW))
def test_graphs_executor_and_autodiff_never_import_control_flow(name):
    assert not [m for m in GRAPH[name] if m.startswith('defun.control_flow')]


def _imports_inside_functions(name):
    path, is_package = MODULES[name]
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for inner in ast.walk(node):
                if isinstance(inner, ast.Import):
                    found += [a.name for a in inner.names]
                elif isinstance(inner, ast.ImportFrom):
                    found.append(_resolve(inner.module, inner.level, name, is_package))
    return [m for m in found if m.split('.')[0] in PACKAGES]


@pytest.mark.parametrize('name', sorted(MODULES))
def test_no_module_of_ours_is_imported_inside_a_function(name):
    # An import inside a function is how a cycle gets hidden; optional third-party imports may be.
    assert _imports_inside_functions(name) == []
