"""Saving traces every function again in a save context, as TF does: Python side effects of
tracing run again once, the tracing count grows, and later saves and calls reuse what exists.
The expected sequence was recorded with TensorFlow 2.21 (/work/tfenv/bin/python)."""
import defun as tf


class _Model(tf.Module):
    def __init__(self, log):
        super().__init__()
        self.v = tf.Variable(1.0)
        self.log = lambda entry: log.append(entry)  # (a list attribute would be a ListWrapper)

    @tf.function
    def __call__(self, x):
        self.log(('call', None if x.shape.rank is None else tuple(x.shape)))
        return x * self.v

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def sig(self, x):
        self.log(('sig', tuple(x.shape)))
        return x + 1

    @tf.function
    def pyarg(self, x, n):
        self.log(('pyarg', n))
        return x * n


def test_save_retraces_each_trace_once(tmp_path):
    log = []
    m = _Model(log)
    m(tf.constant(0.0))
    m(tf.constant([1.0, 2.0]))
    m.pyarg(tf.constant(1.0), 3)
    assert m.__call__.experimental_get_tracing_count() == 2
    del log[:]
    tf.saved_model.save(m, str(tmp_path / 'a'))
    # TF 2.21: the two __call__ traces, the pyarg trace, then sig (never called: traced once).
    assert log == [('call', ()), ('call', (2,)), ('pyarg', 3), ('sig', (None,))]
    assert m.__call__.experimental_get_tracing_count() == 4
    assert m.sig.experimental_get_tracing_count() == 1
    del log[:]
    m(tf.constant(0.0))                      # calls keep their own traces
    tf.saved_model.save(m, str(tmp_path / 'b'))  # a second save reuses the saving traces
    assert log == [] and m.__call__.experimental_get_tracing_count() == 4
    loaded = tf.saved_model.load(str(tmp_path / 'a'))
    assert loaded(tf.constant([3.0, 4.0])).numpy().tolist() == [3.0, 4.0]
    assert loaded.pyarg(tf.constant(2.0), 3).numpy() == 6.0
    assert loaded.signatures['serving_default'](x=tf.constant([1.0]))['output_0'].numpy() == 2.0


def test_a_new_trace_after_a_save_is_retraced_by_the_next_save(tmp_path):
    # The SavedModel guide: get_concrete_function(TensorSpec(None)), then save: one more trace.
    log = []
    m = _Model(log)
    m(tf.constant(0.0))
    tf.saved_model.save(m, str(tmp_path / 'a'))
    call = m.__call__.get_concrete_function(tf.TensorSpec(None, tf.float32))
    del log[:]
    tf.saved_model.save(m, str(tmp_path / 'b'), signatures=call)
    assert log == [('call', None)]
