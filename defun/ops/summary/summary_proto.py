"""TF's SummaryMetadata message (with its PluginData) as summary writers build it: attribute
access, `SerializeToString` and `FromString`, wire-compatible with TF's summary.proto. Keras's
TensorBoard callback fills one in for its model summary."""
from defun.ops.io import proto_wire as wire

__all__ = ['PluginData', 'SummaryMetadata']


class PluginData:
    """SummaryMetadata.PluginData: `plugin_name` (str) and `content` (bytes)."""

    def __init__(self, plugin_name='', content=b''):
        self.plugin_name = plugin_name
        self.content = content

    def SerializeToString(self):  # noqa: N802 - protobuf's name
        out = wire.length_delimited(1, self.plugin_name.encode()) if self.plugin_name else b''
        return out + (wire.length_delimited(2, bytes(self.content)) if self.content else b'')


class SummaryMetadata:
    """`plugin_data` (a PluginData), `display_name`, `summary_description`."""

    def __init__(self, plugin_data=None, display_name='', summary_description=''):
        self.plugin_data = plugin_data if plugin_data is not None else PluginData()
        self.display_name = display_name
        self.summary_description = summary_description

    def SerializeToString(self):  # noqa: N802 - protobuf's name
        plugin = self.plugin_data.SerializeToString()
        out = wire.length_delimited(1, plugin) if plugin else b''
        if self.display_name:
            out += wire.length_delimited(2, self.display_name.encode())
        if self.summary_description:
            out += wire.length_delimited(3, self.summary_description.encode())
        return out

    @classmethod
    def FromString(cls, data):  # noqa: N802 - protobuf's name
        """The message of serialized `data` (fields it does not know are skipped)."""
        message = cls()
        for number, _, value in wire.fields(data):
            if number == 1:
                for inner, _, part in wire.fields(value):
                    if inner == 1:
                        message.plugin_data.plugin_name = part.decode()
                    elif inner == 2:
                        message.plugin_data.content = part
            elif number in (2, 3):
                setattr(message, 'display_name' if number == 2 else 'summary_description',
                        value.decode())
        return message
