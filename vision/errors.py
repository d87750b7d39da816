"""Errors the vision stages raise for bad input (shown to the user, never a traceback)."""

from engine.errors import InputError


class ImageError(InputError):
    """A file that cannot be read as a photo: not an image, truncated, empty, too large."""


class ModelMissing(RuntimeError):
    """The committed model files are not where they should be."""
