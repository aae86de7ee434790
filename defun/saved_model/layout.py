"""The files of a defun SavedModel directory, and the format's name and version."""
import os

__all__ = ['FORMAT', 'VERSION', 'graph_path', 'constants_path', 'variables_prefix',
           'contains_saved_model']

FORMAT = 'defun-saved-model'
VERSION = 1
GRAPH_FILENAME = 'saved_model.json'
CONSTANTS_FILENAME = 'saved_model.npz'


def graph_path(export_dir):
    return os.path.join(export_dir, GRAPH_FILENAME)


def constants_path(export_dir):
    return os.path.join(export_dir, CONSTANTS_FILENAME)


def variables_prefix(export_dir):
    return os.path.join(export_dir, 'variables', 'variables')


def contains_saved_model(export_dir):
    """True when `export_dir` holds a SavedModel written by defun."""
    return os.path.isfile(graph_path(os.fspath(export_dir)))
