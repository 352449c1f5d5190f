"""literaki: a toolkit and analysis library for Literaki and its sibling word games."""

__version__ = "0.1.0"
