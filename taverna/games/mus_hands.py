"""The Mus cards and hand values under their old name: they are
:mod:`taverna.games.mus.hands` now, which this module gives as it is."""

from __future__ import annotations

from .mus.hands import *  # noqa: F403
from .mus.hands import __all__ as __all__
