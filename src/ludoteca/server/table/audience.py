"""Who follows a table: the clients connected to this process (each a :class:`Listener`, which
says its seat) and the seats connected to other processes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol


class Listener(Protocol):
    """A connection that wants to hear when the table changes: a seat's, or a spectator's
    (``seat`` None)."""

    @property
    def seat(self) -> int | None: ...

    def wake(self) -> None: ...


@dataclass(slots=True, eq=False)
class Audience:
    listeners: set[Listener] = field(default_factory=set)
    elsewhere: set[int] = field(default_factory=set)  # seats connected to other processes

    def seated_here(self) -> set[int]:
        """The seats with a client connected to this process."""
        return {s for listener in self.listeners if (s := listener.seat) is not None}

    def connected(self) -> set[int]:
        """The seats with a client connected anywhere."""
        return self.seated_here() | self.elsewhere

    def wake(self) -> None:
        """Wake this process's clients of the table (each sends its own view when it next can)."""
        for listener in list(self.listeners):
            listener.wake()
