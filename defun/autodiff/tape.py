"""GradientTape: records the ops applied to watched tensors so that `gradient` can run them backwards.

A tape keeps a list of op records and the set of tensor ids it tracks (watched tensors and every
output of a recorded op). Recording is cheap when an op touches nothing tracked: one set lookup per
input. The tape holds its tensors strongly only while it has records; `reset`, a finished
non-persistent `gradient` call, or dropping the tape releases them, and nothing refers back to the
tape, so no reference cycle keeps tensors alive.

The backward pass itself lives in backprop.py.
"""
from __future__ import annotations

import functools
import logging
from typing import Any

from defun.autodiff import backprop
from defun.core.composite import CompositeTensor
from defun.core import context, error_helpers, nest
from defun.core.dispatch import OpRecord
from defun.core.tensor import Tensor

__all__ = ['GradientTape', 'TapeRecords', 'variable_accessed', 'watch_tensor']

_state = context.state()
_log = logging.getLogger('defun')


class TapeRecords:
    """The raw recording: which tensors are tracked and which ops touched them, in order."""

    __slots__ = ('tracked', 'entries', 'watched', 'variables', 'watch_accessed')

    def __init__(self, watch_accessed):
        self.tracked = {}    # id(tensor) -> tensor; holding it keeps ids unique while recorded
        self.entries = []    # OpRecords in execution order (a topological order)
        self.watched = {}    # id -> tensor explicitly watched (or a variable's handle)
        self.variables = {}  # id(variable) -> variable, in the order first watched
        self.watch_accessed = watch_accessed

    def record(self, opdef, inputs, outputs, attrs):
        tracked = self.tracked
        for t in inputs:
            if id(t) in tracked:
                break
        else:
            return
        if opdef.grad is None:
            return  # not differentiable: nothing can flow back through it
        self.entries.append(OpRecord(opdef, inputs, outputs, attrs))
        for t in outputs:
            tracked[id(t)] = t

    def release(self):
        """Drops every recorded tensor (a used non-persistent tape); keeps the variables list."""
        self.tracked = {}
        self.entries = []
        self.watched = {}

    def clear(self):
        """Forgets everything, variables included (GradientTape.reset)."""
        self.release()
        self.variables = {}

    def watch(self, tensor):
        self.tracked[id(tensor)] = tensor
        self.watched[id(tensor)] = tensor

    def watch_variable(self, variable):
        if id(variable) not in self.variables:
            self.variables[id(variable)] = variable
        self.watch(variable.handle)


def _user_frames_only(method):
    """Errors leave `method` with defun's frames dropped from the traceback, as TF filters its."""
    @functools.wraps(method)
    def wrapper(*args, **kwargs):
        try:
            return method(*args, **kwargs)
        except Exception as exc:
            raise error_helpers.filtered(exc)
    return wrapper


class GradientTape:
    """Records operations for automatic differentiation, as `tf.GradientTape`."""

    def __init__(self, persistent=False, watch_accessed_variables=True):
        self._persistent = persistent
        self._watch_accessed_variables = watch_accessed_variables
        self._records = TapeRecords(watch_accessed_variables)
        self._recording = False
        self._used = False
        self._entered = False

    def __enter__(self):
        if self._recording:
            raise ValueError('Tape is still recording, This can happen if you try to re-enter an '
                             'already-active tape.')
        context.push_tape(self._records)
        self._recording = True
        self._entered = True
        return self

    def __exit__(self, exc_type, exc, tb):
        if self._recording:
            context.pop_tape(self._records)
            self._recording = False
        return False

    def watch(self, tensor: Any) -> None:
        """Ensures `tensor` (a tensor, a variable, or a nested structure of them) is traced."""
        for t in nest.flatten(tensor):
            if isinstance(t, CompositeTensor):   # a ragged tensor's flat values, a sparse one's values
                for part in nest.flatten(t, expand_composites=True):
                    if part.dtype.is_differentiable:
                        watch_tensor(self._records, part)
            else:
                watch_tensor(self._records, t)

    def watched_variables(self) -> tuple:
        return tuple(self._records.variables.values())

    def stop_recording(self):
        """A context manager in which this tape records nothing."""
        if not self._recording:
            raise ValueError('Tape.stop_recording() called when not recording.')
        return context.recording_paused(self._records)

    def reset(self) -> None:
        """Clears everything recorded so far; the tape keeps recording if it was, and (as in TF)
        can compute gradients again. As TF, only inside the tape's `with` block."""
        if not self._recording:
            raise ValueError('Tape is not recording.')
        # Cleared in place: the records object may sit in a saved tape stack (inside
        # stop_recording), and a new object there would leave the tape recording into the old one.
        self._records.clear()
        self._used = False

    @_user_frames_only
    def gradient(self, target: Any, sources: Any, output_gradients: Any = None,
                 unconnected_gradients: Any = 'none') -> Any:
        """Gradients of `target` with respect to `sources` (both may be nested structures)."""
        return self._run(backprop.gradient, target, sources, output_gradients,
                         unconnected_gradients)

    @_user_frames_only
    def jacobian(self, target, sources, unconnected_gradients='none',
                 parallel_iterations=None, experimental_use_pfor=True):
        """Full jacobian: shape target.shape + source.shape per source."""
        return self._run(backprop.jacobian, target, sources, unconnected_gradients)

    @_user_frames_only
    def batch_jacobian(self, target, source, unconnected_gradients='none',
                       parallel_iterations=None, experimental_use_pfor=True):
        """Jacobian of each example of a batch: shape [batch] + target.shape[1:] + source.shape[1:]."""
        return self._run(backprop.batch_jacobian, target, source, unconnected_gradients)

    def _run(self, pass_fn, *args):
        # A tape never entered has no record at all: TF raises the used-tape error for it too.
        if not self._entered or (self._used and not self._persistent):
            raise RuntimeError('A non-persistent GradientTape can only be used to compute one set '
                               'of gradients (or jacobians)')
        records = self._records
        # A non-persistent tape never records its own backward pass (enclosing tapes do: higher
        # order); a persistent one still recording inside its block does, as in TF.
        if self._persistent and self._recording:
            result = pass_fn(records, *args)
        else:
            with context.recording_paused(records):
                result = pass_fn(records, *args)
        if not self._persistent:
            self._used = True
            records.release()
        return result


def watch_tensor(records, t):
    handle = getattr(t, 'handle', None)
    dtype = getattr(t, 'dtype', None)
    if dtype is not None and not (dtype.is_floating or dtype.is_complex or
                                  dtype.name in ('resource', 'variant')):
        # TF logs this (at most five times) and watches the tensor anyway.
        if context.log_first_n('watch_dtype', 5):
            _log.warning('The dtype of the watched tensor must be floating (e.g. tf.float32), '
                         'got %r', dtype)
    if handle is not None and hasattr(t, 'assign'):
        records.watch_variable(t)
    elif isinstance(t, Tensor):
        records.watch(t)
    else:
        # TF's error; silently tracking id(1.0) would watch nothing useful.
        raise ValueError(f'Passed in object {t!r} of type {type(t).__name__!r}, not tf.Tensor '
                         f'or tf.Variable.')


def variable_accessed(variable):
    """Called on every variable read: tapes watching accessed variables start tracking it."""
    for records in _state.tapes:
        if records.watch_accessed and variable.trainable:
            records.watch_variable(variable)
