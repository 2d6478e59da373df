"""Another name for :mod:`taverna.games.mus.hands` (the Mus cards and hand values),
which this module gives as it is, so that code importing ``taverna.games.mus_hands``
keeps working."""

from __future__ import annotations

from .mus.hands import *  # noqa: F403
from .mus.hands import __all__ as __all__
