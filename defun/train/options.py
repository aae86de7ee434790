"""Option holders of tf.train and tf.saved_model: accepted for TF compatibility and recorded; none
of their settings change what defun writes (one device, no sharding, no experimental I/O)."""

__all__ = ['CheckpointOptions', 'SaveOptions', 'LoadOptions']


class _Options:
    _FIELDS = ()

    def __init__(self, **kwargs):
        unknown = sorted(set(kwargs) - set(self._FIELDS))
        if unknown:
            raise TypeError(f"{type(self).__name__}() got an unexpected keyword argument "
                            f"'{unknown[0]}'")
        for field in self._FIELDS:
            setattr(self, field, kwargs.get(field))


class CheckpointOptions(_Options):
    """tf.train.CheckpointOptions."""
    _FIELDS = ('experimental_io_device', 'experimental_enable_async_checkpoint',
               'experimental_write_callbacks', 'enable_async', 'experimental_sharding_callback',
               'experimental_skip_slot_variables')


class SaveOptions(_Options):
    """tf.saved_model.SaveOptions."""
    _FIELDS = ('namespace_whitelist', 'save_debug_info', 'function_aliases',
               'experimental_debug_stripper', 'experimental_io_device',
               'experimental_variable_policy', 'experimental_custom_gradients',
               'experimental_image_format', 'experimental_skip_saver',
               'experimental_sharding_callback', 'extra_tags')


class LoadOptions(_Options):
    """tf.saved_model.LoadOptions."""
    _FIELDS = ('allow_partial_checkpoint', 'experimental_io_device',
               'experimental_skip_checkpoint', 'experimental_variable_policy',
               'experimental_load_function_aliases')
