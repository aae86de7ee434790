"""tf.config, tf.device, tf.DeviceSpec and tf.version. Reprs, names and error messages were recorded
by running the same calls under TensorFlow 2.21 (/work/tfenv) on a CPU-only machine."""
import numpy as np
import pytest

import defun as tf
from defun.core import context
from defun.config import threading as config_threading

CPU = '/job:localhost/replica:0/task:0/device:CPU:0'


@pytest.fixture
def restore_config():
    saved = {k: context.config_value(k) for k in ('run_functions_eagerly', 'op_determinism',
                                                  'visible_devices', 'logical_devices',
                                                  'log_device_placement', 'jit',
                                                  'optimizer_options', 'tensor_float_32',
                                                  'intra_op_parallelism_threads',
                                                  'inter_op_parallelism_threads')}
    yield
    for k, v in saved.items():
        context.set_config_value(k, v)
    tf.config.threading.set_intra_op_parallelism_threads(saved['intra_op_parallelism_threads'])


def test_device_lists_and_reprs():
    assert repr(tf.config.list_physical_devices()) == \
        "[PhysicalDevice(name='/physical_device:CPU:0', device_type='CPU')]"
    assert repr(tf.config.list_logical_devices()) == \
        "[LogicalDevice(name='/device:CPU:0', device_type='CPU')]"
    assert tf.config.list_physical_devices('GPU') == []
    assert tf.config.list_physical_devices('cpu') == []  # TF matches the type case-sensitively
    d = tf.config.list_physical_devices('CPU')[0]
    assert d.name == '/physical_device:CPU:0' and d.device_type == 'CPU'
    assert tf.config.experimental.list_physical_devices('CPU') == [d]


def test_visible_devices(restore_config):
    cpu = tf.config.list_physical_devices('CPU')
    assert tf.config.get_visible_devices() == cpu
    tf.config.set_visible_devices([], 'GPU')
    assert tf.config.get_visible_devices() == cpu
    with pytest.raises(ValueError, match="Unrecognized device: 'x'"):
        tf.config.set_visible_devices(['x'])
    tf.config.set_visible_devices([], 'CPU')
    assert tf.config.get_visible_devices() == []
    tf.config.set_visible_devices(cpu)
    assert tf.config.get_visible_devices('CPU') == cpu


def test_memory_growth_refused_on_cpu():
    d = tf.config.list_physical_devices()[0]
    with pytest.raises(ValueError, match='non-GPU'):
        tf.config.experimental.set_memory_growth(d, True)


def test_run_functions_eagerly_runs_python_each_call(restore_config):
    seen = []

    @tf.function
    def f(x):
        seen.append(tf.executing_eagerly())
        return x + 1

    tf.config.run_functions_eagerly(True)
    assert tf.config.functions_run_eagerly() is True
    assert f(tf.constant(1)).numpy() == 2
    assert f(tf.constant(2)).numpy() == 3
    assert seen == [True, True] and f.experimental_get_tracing_count() == 0
    tf.config.run_functions_eagerly(False)
    f(tf.constant(1))
    f(tf.constant(2))
    assert seen == [True, True, False] and f.experimental_get_tracing_count() == 1
    tf.config.experimental_run_functions_eagerly(1)
    assert tf.config.experimental_functions_run_eagerly() is True


def test_op_determinism_requires_a_seed(restore_config):
    saved_seed = context.config_value('op_determinism')
    assert saved_seed is False
    tf.config.experimental.enable_op_determinism()
    with pytest.raises(RuntimeError, match='Random ops require a seed'):
        tf.random.normal([2])
    assert tf.random.normal([2], seed=3).shape == (2,)


def test_threading_settings_map_onto_openblas(restore_config):
    assert tf.config.threading.get_inter_op_parallelism_threads() == 0
    tf.config.threading.set_inter_op_parallelism_threads(2)
    assert tf.config.threading.get_inter_op_parallelism_threads() == 2
    start = config_threading.blas_threads()
    tf.config.threading.set_intra_op_parallelism_threads(1)
    assert tf.config.threading.get_intra_op_parallelism_threads() == 1
    if start is not None:  # numpy's bundled OpenBLAS was found
        assert config_threading.blas_threads() == 1
        tf.config.threading.set_intra_op_parallelism_threads(0)
        assert config_threading.blas_threads() == start
    a = np.arange(16.0).reshape(4, 4)
    np.testing.assert_allclose(tf.matmul(a, a).numpy(), a @ a)


@pytest.mark.parametrize('name', ['/GPU:0', 'GPU:0', '/device:GPU:0', '/cpu:0', 'cpu', CPU,
                                  '/gpu:1', '', None, '/device:XLA_CPU:0', 'GPU'])
def test_device_scope_places_on_the_cpu(name):
    with tf.device(name):
        t = tf.constant(1.0) + 1
        v = tf.Variable(1.0)
    assert t.device == CPU and v.device == CPU


@pytest.mark.parametrize('name, error', [
    ('foo', "Unknown attribute 'foo' is encountered while parsing the device spec: 'foo'."),
    ('/CPU:0/extra', "Unknown attribute 'extra' is encountered while parsing the device spec: "
                     "'/CPU:0/extra'."),
    (3, "Expecting a string device name. Got <class 'int'>(3)")])
def test_device_strings_validated_as_tf(name, error):
    with pytest.raises(ValueError) as info:
        with tf.device(name):
            pass
    assert str(info.value) == error


def test_device_in_a_function_and_nesting():
    @tf.function
    def f(x):
        with tf.device('/GPU:0'):
            assert context.requested_device() == '/device:GPU:0'
            with tf.device(None):
                assert context.requested_device() == ''
            return x + 1
    assert f(tf.constant(1.0)).device == CPU
    assert context.requested_device() == ''
    with pytest.raises(RuntimeError, match='does not support functions'):
        with tf.device(lambda op: '/cpu:0'):
            pass


def test_device_spec():
    spec = tf.DeviceSpec.from_string('/job:w/task:1/device:GPU:2')
    assert repr(spec) == '<DeviceSpec(job=w, replica=None, task=1, device_type=GPU, ' \
        'device_index=2)>'
    assert spec.to_string() == '/job:w/task:1/device:GPU:2'
    assert tf.DeviceSpec(device_type='gpu', device_index=0).to_string() == '/device:GPU:0'
    assert tf.DeviceSpec.from_string('/job:w/replica:1/task:2/cpu:3').to_string() == \
        '/job:w/replica:1/task:2/device:CPU:3'
    assert tf.DeviceSpec.from_string('/device:GPU:*').to_string() == '/device:GPU:*'
    assert spec.replace(device_index=0).device_index == 0
    with pytest.raises(ValueError, match='invalid literal'):
        tf.DeviceSpec.from_string('/gpu:x')


def test_version_is_defuns_own():
    import pathlib
    import re
    pyproject = pathlib.Path(__file__).parents[2] / 'pyproject.toml'
    declared = re.search(r'^version = "(.*)"', pyproject.read_text(), re.M).group(1)
    assert tf.__version__ == tf.version.VERSION == declared


def test_logical_device_configuration(restore_config):
    cpu = tf.config.list_physical_devices('CPU')[0]
    assert tf.config.get_logical_device_configuration(cpu) is None
    config = tf.config.LogicalDeviceConfiguration()
    # Reprs recorded from TF 2.21.
    assert repr(config) == ('LogicalDeviceConfiguration(memory_limit=None, '
                            'experimental_priority=None, experimental_device_ordinal=None)')
    tf.config.set_logical_device_configuration(cpu, [config] * 3)
    assert tf.config.get_logical_device_configuration(cpu) == [config] * 3
    assert repr(tf.config.list_logical_devices('CPU')) == (
        "[LogicalDevice(name='/device:CPU:0', device_type='CPU'), "
        "LogicalDevice(name='/device:CPU:1', device_type='CPU'), "
        "LogicalDevice(name='/device:CPU:2', device_type='CPU')]")
    assert tf.config.experimental.VirtualDeviceConfiguration is tf.config.LogicalDeviceConfiguration
    tf.config.set_logical_device_configuration(cpu, [])
    with pytest.raises(tf.errors.NotFoundError, match='No CPU devices are available'):
        tf.config.list_logical_devices()
    with pytest.raises(ValueError, match='Unrecognized device'):
        tf.config.set_logical_device_configuration('x', [config])


def test_log_device_placement_is_recorded(restore_config):
    assert tf.debugging.get_log_device_placement() is False
    tf.debugging.set_log_device_placement(True)
    assert tf.debugging.get_log_device_placement() is True


def test_graph_ops_record_the_requested_device():
    seen = []

    @tf.function
    def f(x):
        y = x + 1
        seen.append((y.device, y.op.device, x.device))
        with tf.device('/cpu:0'):
            seen.append((y * 2).device)
        with tf.device('/GPU:1'):
            z = y * 2
            seen.append(z.device)
            with tf.device('/CPU:0'):
                seen.append((z + 1).device)
            with tf.device('cpu'):
                seen.append((z + 1).device)
            with tf.device(None):
                seen.append((z + 1).device)
        return z
    assert f(tf.constant(1.0)).device == CPU
    # Recorded from TF 2.21: nested scopes refine the enclosing one, None clears it.
    assert seen == [('', '', ''), '/device:CPU:0', '/device:GPU:1', '/device:CPU:0',
                    '/device:CPU:1', '']
    g = tf.Graph()
    with g.as_default():
        with tf.device('/GPU:0'):
            c = tf.constant(1.0)
    assert c.device == c.op.device == '/device:GPU:0'


def test_optimizer_and_precision_settings_report_as_tf(restore_config):
    # Values recorded from TF 2.21.
    assert tf.config.optimizer.get_jit() == ''
    assert tf.config.optimizer.get_experimental_options() == {
        'disable_model_pruning': False, 'disable_meta_optimizer': False}
    tf.config.optimizer.set_jit(True)
    assert tf.config.optimizer.get_jit() == 'autoclustering'
    tf.config.optimizer.set_jit(False)
    assert tf.config.optimizer.get_jit() == ''
    tf.config.optimizer.set_experimental_options({'constant_folding': True})
    assert list(tf.config.optimizer.get_experimental_options().items()) == [
        ('constant_folding', True), ('disable_model_pruning', False),
        ('disable_meta_optimizer', False)]
    assert tf.config.experimental.tensor_float_32_execution_enabled() is True
    tf.config.experimental.enable_tensor_float_32_execution(False)
    assert tf.config.experimental.tensor_float_32_execution_enabled() is False
    cpu = tf.config.list_physical_devices('CPU')[0]
    assert tf.config.experimental.get_device_details(cpu) == {}


def _debug_functions():
    @tf.function
    def numerics(x):
        tf.debugging.check_numerics(x, 'Bad!')
        return tf.debugging.check_numerics(x, 'Bad!') * 2

    @tf.function
    def asserts(x):
        tf.debugging.Assert(x > 0, [x])
        tf.debugging.assert_equal(x, 1.0)
        with tf.control_dependencies([tf.debugging.assert_positive(x)]):
            return tf.identity(x)

    @tf.function
    def printing(x):
        tf.print('printed', x)
        return x
    return numerics, asserts, printing


def test_debug_stripper_and_other_options_as_tf(restore_config, capfd):
    # TF 2.21: the guide's debug stripper example and its neighbours.
    numerics, asserts, printing = _debug_functions()
    with pytest.raises(tf.errors.InvalidArgumentError):
        numerics(tf.constant(float('inf')))
    with pytest.raises(tf.errors.InvalidArgumentError):
        asserts(tf.constant(-1.0))
    printing(tf.constant(2.0))
    assert capfd.readouterr().err == 'printed 2\n'
    tf.config.optimizer.set_experimental_options({'debug_stripper': True})
    numerics, asserts, printing = _debug_functions()
    assert float(numerics(tf.constant(float('inf')))) == float('inf')
    assert float(asserts(tf.constant(-1.0))) == -1.0
    printing(tf.constant(2.0))
    assert capfd.readouterr().err == ''
    with pytest.raises(tf.errors.InvalidArgumentError):   # eager ops are not stripped
        tf.debugging.check_numerics(tf.constant(float('inf')), 'x')
    # The meta optimizer off turns the stripper off too.
    tf.config.optimizer.set_experimental_options({'disable_meta_optimizer': True})
    with pytest.raises(tf.errors.InvalidArgumentError):
        _debug_functions()[0](tf.constant(float('inf')))
    # TF's report: its order, unknown names ignored, None back to the default.
    tf.config.optimizer.set_experimental_options({'disable_meta_optimizer': None, 'bogus': 1,
                                                  'constant_folding': False,
                                                  'layout_optimizer': True})
    assert list(tf.config.optimizer.get_experimental_options().items()) == [
        ('layout_optimizer', True), ('constant_folding', False), ('debug_stripper', True),
        ('disable_model_pruning', False), ('disable_meta_optimizer', False)]
