"""TrackableResource: TF's base for an object that owns a resource (such as a lookup table's
state) and is saved with the objects that track it. The resource is made the first time its
handle is asked for, by the subclass's `_create_resource()`, then `_initialize()` runs once."""
from defun.state.trackable import AutoTrackable

__all__ = ['TrackableResource']


class TrackableResource(AutoTrackable):
    """Subclass it and define `_create_resource()` (returning the handle) and, when the resource
    needs filling, `_initialize()`; `resource_handle` creates the resource on first use."""

    def __init__(self, device=''):
        super().__init__()
        self._resource_device = device
        self._resource_handle_value = None

    @property
    def resource_handle(self):
        """The resource's handle, created (and initialized) on first use."""
        if self._resource_handle_value is None:
            self._resource_handle_value = self._create_resource()
            self._initialize()
        return self._resource_handle_value

    def _create_resource(self):
        raise NotImplementedError(f'{type(self).__name__} must define _create_resource() to '
                                  f'make its resource handle')

    def _initialize(self):
        """Fills a newly created resource; nothing by default."""

    def _destroy_resource(self):
        """Frees the resource; nothing by default (defun's resources are Python objects)."""
