"""tf.types.experimental: the classes TF exposes for type checks and for custom trace types
(`TraceType`, which an object's `__tf_tracing_type__` returns)."""
from defun.concrete import ConcreteFunction
from defun.function import Function
from defun.function_type import FunctionType
from defun.trace_types import TraceType, TracingContext

__all__ = ['ConcreteFunction', 'FunctionType', 'GenericFunction', 'PolymorphicFunction',
           'TraceType', 'TracingContext']

PolymorphicFunction = GenericFunction = Function
