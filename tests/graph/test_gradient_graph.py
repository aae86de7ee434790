"""GradientGraph, the one builder of a sub-graph's gradient (compiled-call backward, cond branches,
while bodies): seeds per target, gradients per source, and the forward tensors it reads."""
import numpy as np

import defun as tf
from defun.core import context
from defun.compiler.executor import compile_graph
from defun.graphs.funcgraph import FuncGraph
from defun.autodiff.gradient_graph import GradientGraph


def _forward():
    graph = FuncGraph('forward')
    with context.graph_mode(graph):
        x = graph.add_placeholder(tf.float64, (3,), 'x')
        z = graph.add_placeholder(tf.float64, (3,), 'z')
        y = tf.sin(x) * x
    graph.inputs, graph.outputs = [x, z], [y]
    return graph, x, z, y


def test_gradient_of_a_subgraph_matches_the_formula():
    forward, x, z, y = _forward()
    gradient = GradientGraph(forward, [y], [x, z], 'forward_grad')
    dx, dz = gradient.grads
    assert dz is None  # unconnected
    (seed,) = gradient.seeds
    read = [t for t, _ in gradient.forward_reads()]
    assert read and all(t.op.graph is forward for t in read)
    graph = gradient.graph
    graph.inputs = [seed] + [ph for _, ph in gradient.forward_reads()]
    graph.outputs = [dx]
    values = np.array([0.5, -1.0, 2.0])
    run_forward = compile_graph(forward, [x, z], read)
    run_backward = compile_graph(graph, graph.inputs, [dx])
    seed_value = np.array([1.0, 2.0, 3.0])
    (result,) = run_backward(seed_value, *run_forward(values, values))
    expected = seed_value * (np.cos(values) * values + np.sin(values))  # d(x sin x)/dx
    np.testing.assert_allclose(result, expected)


def test_seed_shapes_can_be_given():
    forward, x, z, y = _forward()
    gradient = GradientGraph(forward, [y], [x], 'g', seed_shapes=[tf.TensorShape([None])])
    assert gradient.seeds[0].shape.as_list() == [None]
    assert gradient.outer_reads() == []
