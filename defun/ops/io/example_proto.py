"""tf.train.Example and its parts (Features, Feature, BytesList, FloatList, Int64List,
FeatureList, FeatureLists, SequenceExample): TF's example.proto and feature.proto messages on the
small message model of messages.py, wire-compatible with TF's."""
from defun.ops.io.messages import DecodeError, Message

__all__ = ['BytesList', 'FloatList', 'Int64List', 'Feature', 'Features', 'FeatureList',
           'FeatureLists', 'Example', 'SequenceExample', 'DecodeError']


class BytesList(Message):
    FIELDS = (('value', 1, 'repeated', 'bytes'),)


class FloatList(Message):
    FIELDS = (('value', 1, 'repeated', 'float'),)


class Int64List(Message):
    FIELDS = (('value', 1, 'repeated', 'int64'),)


class Feature(Message):
    FIELDS = (('bytes_list', 1, 'message', BytesList), ('float_list', 2, 'message', FloatList),
              ('int64_list', 3, 'message', Int64List))
    ONEOF = ('kind', ('bytes_list', 'float_list', 'int64_list'))


class Features(Message):
    FIELDS = (('feature', 1, 'map', Feature),)


class FeatureList(Message):
    FIELDS = (('feature', 1, 'repeated_message', Feature),)


class FeatureLists(Message):
    FIELDS = (('feature_list', 1, 'map', FeatureList),)


class Example(Message):
    FIELDS = (('features', 1, 'message', Features),)


class SequenceExample(Message):
    FIELDS = (('context', 1, 'message', Features), ('feature_lists', 2, 'message', FeatureLists))
