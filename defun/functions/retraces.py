"""Retrace explanations of a Function: every retrace records which argument changed, from what to
what, and where it was called; after TF's threshold a warning prints that history with the usual
fixes once, and Function.explain_retraces() returns it on demand.
"""
import logging

from defun.core.user_frame import user_origin

__all__ = ['RetraceLog', 'RETRACE_WARNING_THRESHOLD']

_log = logging.getLogger('defun')
RETRACE_WARNING_THRESHOLD = 5


class RetraceLog:
    """The traces of one Function so far, as far as explaining retraces needs them."""

    def __init__(self, fn_name):
        self.fn_name = fn_name
        self.entries = []       # {'trace', 'changes', 'call_site'} per retrace
        self.warned = False
        self.last = {}          # parameter names -> the last key traced with them
        self.last_key = None

    def traced(self, key):
        """Notes a key that was traced (and cached)."""
        self.last[key.names] = self.last_key = key

    def record(self, key, trace_number):
        """Records that trace `trace_number` is for `key`, a retrace unless it is the first."""
        if self.last_key is None:
            return
        base = self.last.get(key.names, self.last_key)
        self.entries.append({'trace': trace_number, 'changes': base.describe_changes(key),
                             'call_site': _call_site()})
        if len(self.entries) + 1 >= RETRACE_WARNING_THRESHOLD and not self.warned:
            self.warned = True
            _log.warning(self.warning())

    def warning(self):
        lines = [f'{self.fn_name} has been traced {len(self.entries) + 1} times. Retracing is '
                 f'expensive; these calls caused it:']
        for entry in self.entries:
            changed = '; '.join(f'`{n}` changed from {old} to {new}'
                                for n, old, new in entry['changes']) or 'a new trace key'
            lines.append(f'  trace {entry["trace"]} at {entry["call_site"]}: {changed}')
        lines.append('Usual fixes: pass tensors instead of Python numbers, give an '
                     'input_signature, or use reduce_retracing=True for changing shapes.')
        return '\n'.join(lines)


def _call_site():
    origin = user_origin()  # the one frame walker (defun/core/user_frame.py)
    return f'{origin[0]}:{origin[1]}' if origin is not None else '<unknown>'
