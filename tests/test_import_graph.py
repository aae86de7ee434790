"""The layers of docs/architecture.md, checked on the source as rules about folders: the import
graph of defun/ and autograph/, built with `ast` from every import statement (at module level or
inside a function alike), has no cycle, and each folder of defun/ imports only the folders below it
(LAYERS). The bottom layer (defun/core/) imports only itself; the op tables (defun/ops/) only the
core; graphs, the compiler and autodiff never import control flow; the functions layer never
imports control flow; AutoGraph's runtime never imports the face `defun`; and no module of ours is
imported inside a function.

An import of a package's submodule (`from defun.core import nest`, `import defun.ops.math.exports`)
is an edge to that submodule; Python's implicit import of the parent package is not an edge (the
face `defun/__init__.py` imports nearly everything, and a submodule never needs it).
"""
import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
PACKAGES = ('defun', 'autograph')

# Each folder of defun/ (a layer) and the folders it may import besides itself, bottom up. The face
# (defun/__init__.py) and the TF namespace modules directly in defun/ may import anything.
LAYERS = {
    'core': set(),
    'compiler': {'core'},                   # the executor knows graphs only through given objects
    'graphs': {'core', 'compiler'},         # a FuncGraph compiles values it lifts out of itself
    'ops': {'core'},
    'autodiff': {'core', 'compiler', 'graphs', 'ops'},
    'state': {'core', 'compiler', 'graphs', 'ops', 'autodiff'},
    'control_flow': {'core', 'compiler', 'graphs', 'ops', 'autodiff', 'state'},
    'functions': {'core', 'compiler', 'graphs', 'ops', 'autodiff', 'state', 'autograph'},
}
LIBRARIES = {'data', 'train', 'saved_model', 'optimizers', 'config', 'types', 'compat',
             'distribute', 'testing'}
# Faces besides defun/__init__.py: tf_compat/ makes defun importable as `tensorflow`, private module
# paths included, and keras/ (tf.keras) is the Keras package run on it: both re-export from
# anywhere, as the face does.
FACES = {'tf_compat', 'keras'}
BELOW_LIBRARIES = set(LAYERS) | {'autograph'}


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
    assert {'defun', 'defun.ops.math.exports', 'defun.control_flow.while_ops',
            'autograph.impl'} <= set(MODULES)
    assert 'defun.control_flow' in GRAPH['autograph.operators.control_flow']
    assert 'autograph.impl' in GRAPH['defun.functions.function']


def test_no_import_cycle():
    assert _cycles() == []


def _folder(name):
    """The layer folder of a module of defun/ ('core', 'ops', ...), 'autograph' for AutoGraph, or
    None for the face and the namespace modules directly in defun/."""
    parts = name.split('.')
    if parts[0] == 'autograph':
        return 'autograph'
    if len(parts) == 2 and not MODULES[name][1] or len(parts) == 1 or parts[1] in FACES:
        return None
    return parts[1]


def test_every_folder_of_defun_is_a_layer():
    folders = {_folder(n) for n in MODULES if n.startswith('defun.')} - {None}
    assert folders <= set(LAYERS) | LIBRARIES, folders - set(LAYERS) - LIBRARIES


@pytest.mark.parametrize('name', sorted(n for n in MODULES if _folder(n) in LAYERS))
def test_each_layer_imports_only_the_layers_below(name):
    here = _folder(name)
    upward = sorted(m for m in GRAPH[name] if _folder(m) not in LAYERS[here] | {here})
    assert upward == [], f'{name} ({here}/) imports {upward}: above its layer'


@pytest.mark.parametrize('name', sorted(n for n in MODULES if _folder(n) in LIBRARIES))
def test_libraries_never_import_the_face_or_namespaces(name):
    upward = sorted(m for m in GRAPH[name] if _folder(m) is None)
    assert upward == [], f'{name} imports the face or a namespace module: {upward}'


@pytest.mark.parametrize('name', sorted(n for n in MODULES if n.startswith('defun.ops.')))
def test_op_tables_import_only_the_core(name):
    upward = sorted(m for m in GRAPH[name] if _folder(m) not in ('ops', 'core'))
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


# The bottom layer (the registry and dispatch over context, tensors, dtypes, shapes, nest and
# errors): it imports only itself, so it never reaches the graphs or the op tables.
@pytest.mark.parametrize('name', sorted(n for n in MODULES if _folder(n) == 'core'))
def test_the_bottom_layer_imports_only_itself(name):
    assert sorted(m for m in GRAPH[name] if _folder(m) != 'core') == [], \
        f'{name} imports above the bottom layer'


# Graphs, the compiler, autodiff and the functions layer never import control flow (control flow
# builds on the first three; traced code reaches it through AutoGraph or the user's own calls).
@pytest.mark.parametrize('name', sorted(n for n in MODULES if _folder(n) in
                                        ('graphs', 'compiler', 'autodiff', 'functions')))
def test_graphs_compiler_autodiff_and_functions_never_import_control_flow(name):
    assert not [m for m in GRAPH[name] if _folder(m) == 'control_flow']


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
