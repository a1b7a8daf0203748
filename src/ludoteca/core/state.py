"""The base of every position (kept apart from ``game`` so the compiled rules can build on it:
see ``ludoteca.native``)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Self

from mypy_extensions import mypyc_attr

from .rng import Stream


@mypyc_attr(allow_interpreted_subclasses=True)
class State(ABC):
    """A position. Subclasses keep their own fields and must copy them all in ``clone``."""

    __slots__ = ("rng",)

    rng: Stream

    @abstractmethod
    def clone(self) -> Self:
        """An independent copy (the stream included)."""
