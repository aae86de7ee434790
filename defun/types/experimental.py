"""tf.types.experimental: the classes TF exposes for type checks and for custom trace types
(`TraceType`, which an object's `__tf_tracing_type__` returns)."""
from defun.functions.concrete import ConcreteFunction
from defun.functions.function import Function
from defun.functions.function_type import FunctionType
from defun.functions.trace_types import TraceType, TracingContext

__all__ = ['ConcreteFunction', 'FunctionType', 'GenericFunction', 'PolymorphicFunction',
           'TraceType', 'TracingContext']

PolymorphicFunction = GenericFunction = Function
