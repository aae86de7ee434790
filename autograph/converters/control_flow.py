"""`if`, `while` and `for` statements, as calls to `ag__.if_stmt`, `while_stmt` and `for_stmt`.

Each block becomes a nested function that declares `nonlocal` every name the block writes, so run as
plain Python it behaves exactly like the statement. For a tensor condition the operators also need
the construct's *state*: two generated functions read and write it (`get_state` / `set_state`):

  * for an `if`, the names either branch writes; the first `nouts` of them (those live after the if)
    are its outputs;
  * for a loop, the names the body writes that are live at the loop head or after the loop: its
    loop variables.

Every name a block writes that is not a parameter starts the function as `ag__.Undefined(name)`,
so the nested functions can declare it nonlocal even when nothing else in the function binds it.
Reads of such names that the reaching-definitions analysis cannot prove defined go through
`ag__.ld(name)`, which raises UnboundLocalError for an undefined value, as Python would.

Expects break, continue and return to be converted already (a for loop may carry an extra test).
"""
import gast

from autograph.pyct import anno
from autograph.pyct import origin
from autograph.pyct import qual_names
from autograph.pyct import templates
from autograph.pyct import transformer
from autograph.pyct.analysis import liveness
from autograph.pyct.analysis import reaching
from autograph.pyct.analysis import scopes

_IF_TEMPLATE = '''
def if_true():
    global global_names
    nonlocal modified
    body
def if_false():
    global global_names
    nonlocal modified
    orelse
get_and_set_state
ag__.if_stmt(test, if_true, if_false, get_state, set_state, symbol_names, nouts, one_sided)
'''

_WHILE_TEMPLATE = '''
def loop_test():
    return test
def loop_body():
    global global_names
    nonlocal modified
    body
get_and_set_state
ag__.while_stmt(loop_test, loop_body, get_state, set_state, symbol_names, opts)
'''

_FOR_TEMPLATE = '''
def loop_body(iterate):
    global global_names
    nonlocal modified
    target = iterate
    body
extra_test_def
ag__.for_stmt(iter_, extra_test, loop_body, get_state, set_state, symbol_names, opts)
'''

_STATE_TEMPLATE = '''
def get_state():
    return state
def set_state(values):
    nonlocal names
    state_target = values
'''


class _ControlFlow(transformer.Base):

    def __init__(self, ctx):
        super().__init__(ctx)
        self.state_names = set()
        # Names the generated functions declare nonlocal: the function itself must bind them.
        self.bound_names = set()
        self.helper_names = set()

    def _new(self, base):
        name = self.ctx.namer.new_symbol(base)
        self.helper_names.add(name)
        return name

    def _declarations(self, written):
        modified = sorted(self._writes_local(written))
        self.bound_names.update(modified)
        return {'global_names': sorted(written & self.ctx.globals), 'modified': modified}

    def _writes_local(self, written):
        return written - self.ctx.globals - self.helper_names

    def _state_functions(self, head, composites=(), tail=()):
        """get_state / set_state of the names `head`, then `composites` (qual_names), then `tail`."""
        get_state, set_state = self._new('get_state'), self._new('set_state')
        values = self._new('vars_')
        slots = [self._new('slot_') for _ in composites]
        state = list(head) + list(tail)
        loads = [_name(n) for n in head] + [templates.replace_as_expression(
            'ag__.ldu(lambda: target, label)', target=c.load(),
            label=gast.Constant(value=c.name, kind=None)) for c in composites]
        loads += [_name(n) for n in tail]
        getter = templates.replace('def get_state():\n    return state', get_state=get_state,
                                   state=gast.Tuple(elts=loads, ctx=gast.Load()))
        body = templates.replace('nonlocal names', names=list(state)) if state else []
        if loads:
            targets = [_name(n) for n in list(head) + slots + list(tail)]
            body += templates.replace('targets = values', values=values,
                                      targets=gast.Tuple(elts=targets, ctx=gast.Store()))
        for c, slot in zip(composites, slots):
            body += templates.replace(
                'ag__.store(parent, key, is_attribute, slot)', parent=c.parent(), key=c.key(),
                is_attribute=gast.Constant(value=c.is_attribute, kind=None), slot=slot)
        setter = templates.replace('def set_state(values):\n    body', set_state=set_state,
                                   values=values, body=body or [gast.Pass()])
        self.state_names.update(state)
        return getter + setter, get_state, set_state

    def _composites(self, block, written):
        return qual_names.composite_writes(block, rebound=written)

    def visit_If(self, node):
        written = scopes.activity(node.body + node.orelse).writes
        composites = self._composites(node.body + node.orelse, written)
        local = sorted(self._writes_local(written))
        live_out = anno.getanno(node, anno.Key.LIVE_OUT, frozenset())
        outputs = [n for n in local if n in live_out]
        others = [n for n in local if n not in live_out]
        node = self.generic_visit(node)
        # Composites are outputs too: their objects outlive the if.
        state_defs, get_state, set_state = self._state_functions(outputs, composites, others)
        names = outputs + [c.name for c in composites] + others
        new = templates.replace(
            _IF_TEMPLATE, if_true=self._new('if_body'), if_false=self._new('else_body'),
            body=node.body, orelse=node.orelse or [gast.Pass()], test=node.test,
            get_and_set_state=state_defs, get_state=get_state, set_state=set_state,
            symbol_names=templates.name_tuple(names),
            nouts=gast.Constant(value=len(outputs) + len(composites), kind=None),
            one_sided=gast.Constant(value=self.ctx.uses('ONE_SIDED_RETURNS'), kind=None),
            **self._declarations(written))
        return origin.copy_location(new, node)

    def _loop_variables(self, node, written):
        live = anno.getanno(node, anno.Key.LIVE_IN, frozenset()) | anno.getanno(
            node, anno.Key.LIVE_OUT, frozenset())
        return [n for n in sorted(self._writes_local(written)) if n in live]

    def visit_While(self, node):
        written = scopes.activity(node.body).writes
        composites = self._composites(node.body, written)
        loop_vars = self._loop_variables(node, written)
        node = self.generic_visit(node)
        state_defs, get_state, set_state = self._state_functions(loop_vars, composites)
        new = templates.replace(
            _WHILE_TEMPLATE, loop_test=self._new('loop_test'), loop_body=self._new('loop_body'),
            test=node.test, body=node.body, get_and_set_state=state_defs, get_state=get_state,
            set_state=set_state,
            symbol_names=templates.name_tuple(loop_vars + [c.name for c in composites]),
            opts=_options(node, self.ctx), **self._declarations(written))
        return origin.copy_location(new, node)

    def visit_For(self, node):
        written = scopes.activity(node.body + [node.target]).writes
        composites = self._composites(node.body, written)
        loop_vars = self._loop_variables(node, written)
        node = self.generic_visit(node)
        state_defs, get_state, set_state = self._state_functions(loop_vars, composites)
        extra = anno.getanno(node, anno.Key.EXTRA_TEST)
        if extra is not None:
            extra_test = self._new('extra_test')
            extra_def = templates.replace('def extra_test():\n    return test',
                                          extra_test=extra_test, test=extra)
            extra_ref = extra_test
        else:
            extra_def, extra_ref = [], gast.Constant(value=None, kind=None)
        new = templates.replace(
            _FOR_TEMPLATE, loop_body=self._new('loop_body'), iterate=self._new('itr'),
            target=node.target, body=node.body, extra_test_def=state_defs + extra_def,
            iter_=node.iter, extra_test=extra_ref, get_state=get_state, set_state=set_state,
            symbol_names=templates.name_tuple(loop_vars + [c.name for c in composites]),
            opts=_options(node, self.ctx), **self._declarations(written))
        return origin.copy_location(new, node)


def _name(name):
    node = gast.Name(id=name, ctx=gast.Load(), annotation=None, type_comment=None)
    anno.setanno(node, anno.Key.GENERATED, True)
    return node


def _options(node, ctx):
    """The loop's options: set_loop_options keywords, plus what the operators need to know of the
    construct (a for loop's target names; whether ONE_SIDED_RETURNS is on)."""
    keywords = anno.getanno(node, anno.Key.LOOP_OPTIONS, [])
    keys = [gast.Constant(value=k.arg, kind=None) for k in keywords]
    values = [k.value for k in keywords]
    if isinstance(node, gast.For):
        targets = sorted(scopes.activity(node.target).writes)
        keys.append(gast.Constant(value='iterate_names', kind=None))
        values.append(templates.name_tuple(targets))
    if ctx.uses('ONE_SIDED_RETURNS'):
        keys.append(gast.Constant(value='one_sided_returns', kind=None))
        values.append(gast.Constant(value=True, kind=None))
    return gast.Dict(keys=keys, values=values)


class _LoadWrapper(gast.NodeTransformer):
    """Routes reads of possibly-undefined state names (and of every deleted name) through `ag__.ld`."""

    def __init__(self, names, deleted):
        self.names = names | deleted
        self.deleted = deleted

    def _scope(self, node):
        return self.generic_visit(node) if transformer.is_generated(node) else node

    visit_FunctionDef = visit_Lambda = visit_ClassDef = _scope

    def visit_Name(self, node):
        if (isinstance(node.ctx, gast.Load) and node.id in self.names
                and not transformer.is_generated(node)
                and (node.id in self.deleted
                     or not anno.getanno(node, anno.Key.DEFINED_HERE, False))):
            return origin.copy_location(templates.replace_as_expression('ag__.ld(name)', name=node), node)
        return node


def transform(node, ctx):
    if isinstance(node, gast.Lambda):
        return node
    liveness.resolve(node)
    reaching.resolve(node)
    converter = _ControlFlow(ctx)
    node = converter.visit_scope_body(node)
    written = converter.state_names | converter.bound_names
    undefined = sorted(written - ctx.parameters - ctx.nonlocals - ctx.globals)
    if undefined or ctx.deleted:
        wrapper = _LoadWrapper(set(undefined), ctx.deleted)
        node.body = [wrapper.visit(s) for s in node.body]
    if undefined:
        inits = []
        for name in undefined:
            inits += templates.replace('name = ag__.Undefined(label)', name=name,
                                       label=gast.Constant(value=name, kind=None))
        node.body = origin.copy_location(inits, node.body[0]) + node.body
    return node
