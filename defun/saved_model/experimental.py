"""`tf.saved_model.experimental`: TrackableResource, the base of objects that own a resource and
are saved with the objects tracking them."""
from defun.core.unsupported import missing_names
from defun.state.resources import TrackableResource

__all__ = ['TrackableResource']

__getattr__ = missing_names(__name__, 'tf.saved_model.experimental', {
    'Fingerprint': 'SavedModel fingerprints (defun writes its own files, not saved_model.pb)',
    'read_fingerprint': 'SavedModel fingerprints (defun writes its own files, not saved_model.pb)',
    'VariablePolicy': 'SavedModel variable policies for devices'})
