"""TF's private modules Keras imports beyond the basics: `framework.tensor_util.is_tf_type` and
`eager.context._reset_context` (behaviour recorded from TF 2.21)."""
import defun as tf
from defun.tf_compat import eager_context, finder, tensor_util


def test_tensor_util_is_tf_type_is_is_tensor():
    assert finder.PRIVATE_MODULES['tensorflow.python.framework.tensor_util'] == \
        'defun.tf_compat.tensor_util'
    assert tensor_util.is_tf_type(tf.constant(1.))
    assert tensor_util.is_tf_type(tf.Variable(1.))
    assert not tensor_util.is_tf_type(1.0) and not tensor_util.is_tf_type({'training': True})


def test_reset_context_restores_the_context_settings_only():
    cpu = tf.config.list_physical_devices('CPU')[0]
    try:
        tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
        tf.config.set_soft_device_placement(False)
        tf.config.threading.set_intra_op_parallelism_threads(3)
        tf.config.optimizer.set_jit('autoclustering')
        tf.config.run_functions_eagerly(True)
        assert len(tf.config.list_logical_devices('CPU')) == 2
        eager_context._reset_context()
        # TF: 1 logical CPU, no configuration, soft placement on, 0 threads, jit off; the
        # process-wide run_functions_eagerly stays on.
        assert len(tf.config.list_logical_devices('CPU')) == 1
        assert tf.config.get_logical_device_configuration(cpu) is None
        assert tf.config.get_soft_device_placement() is True
        assert tf.config.threading.get_intra_op_parallelism_threads() == 0
        assert not tf.config.optimizer.get_jit()
        assert tf.config.functions_run_eagerly()
    finally:
        tf.config.run_functions_eagerly(False)
        eager_context._reset_context()
