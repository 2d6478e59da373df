"""Taverna: an online club for Muggins dominoes, Muggins cards and Mus."""

__version__ = "0.1.0"

# which build of the engines this process runs (compiled by mypyc, or the source): chosen
# before any engine is imported (taverna/native.py)
from . import native as _native

_native.choose()
