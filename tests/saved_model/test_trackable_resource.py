"""tf.saved_model.experimental.TrackableResource: the handle is created on first use by the
subclass's _create_resource, then _initialize runs once (TF 2.21's CapturableResource order)."""
import pytest

import defun as tf
from defun.core.unsupported import NotInDefunError


class Counter(tf.saved_model.experimental.TrackableResource):
    def __init__(self):
        super().__init__()
        self.calls = []

    def _create_resource(self):
        self.calls.append('create')
        return tf.constant(7)

    def _initialize(self):
        self.calls.append('initialize')


def test_the_resource_is_made_once_on_first_use():
    r = Counter()
    assert r.calls == []
    assert int(r.resource_handle) == 7 and int(r.resource_handle) == 7
    assert r.calls == ['create', 'initialize']
    assert isinstance(r, tf.saved_model.experimental.TrackableResource)


def test_a_subclass_without_create_resource_says_so():
    with pytest.raises(NotImplementedError, match='_create_resource'):
        tf.saved_model.experimental.TrackableResource().resource_handle


def test_fingerprints_are_named_as_missing():
    with pytest.raises(NotInDefunError, match='read_fingerprint'):
        tf.saved_model.experimental.read_fingerprint
