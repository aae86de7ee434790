"""Annotations: extra facts attached to gast nodes by the analyses and converters.

Every annotation is keyed by a member of `Key`, whose value documents what the annotation holds, so
a reader meeting `anno.getanno(node, Key.LIVE_OUT)` can look up its meaning in one place. Annotations
live in a dict stored on the node itself, so they travel with the node through copies.
"""
import enum

_FIELD = 'pyct_annotations'


class Key(enum.Enum):
    """Annotation keys; each value says what the annotation holds."""
    ORIGIN = 'origin.OriginInfo: the user file/line a node came from'
    GENERATED = 'True on nodes that AutoGraph created (their names are not the user\'s)'
    LIVE_OUT = 'frozenset of names live right after a compound statement'
    LIVE_IN = 'frozenset of names live right before a statement or a loop body'
    DEFINED_IN = 'frozenset of names defined on every path reaching a compound statement'
    DEFINED_HERE = 'True on a Name load that is defined on every path reaching it'
    EXTRA_TEST = 'gast expression: an extra condition of a for loop (the negated break flag)'
    LOOP_OPTIONS = 'gast keywords from set_loop_options, taken out of a loop body'


def getanno(node, key, default=None):
    return getattr(node, _FIELD, {}).get(key, default)


def hasanno(node, key):
    return key in getattr(node, _FIELD, {})


def setanno(node, key, value):
    annotations = getattr(node, _FIELD, None)
    if annotations is None:
        annotations = {}
        setattr(node, _FIELD, annotations)
    annotations[key] = value


def delanno(node, key):
    getattr(node, _FIELD, {}).pop(key, None)


def copyanno(from_node, to_node, key):
    if hasanno(from_node, key):
        setanno(to_node, key, getanno(from_node, key))
