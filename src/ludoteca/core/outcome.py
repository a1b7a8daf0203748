"""What playing produces, as plain values: an ``Event`` for the match log, and the ``Outcome`` a
match ends with (the one shape every record and view uses)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .spec import JSON


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a match ended.

    ``winners`` are the seats that win, ascending; several share the result and then ``draw`` is
    true (everybody level is every seat in ``winners``). No winners and no draw means nobody at
    the table won (e.g. the dragon). Every game gives its outcome in this one shape, the records';
    ``canonical`` puts the two older shapes of format-1 records into it.
    ``reason`` is a short machine word (``camp``, ``relics``, ``stuck``, ``score``...);
    ``scores`` are the final scores per seat where the game has them.
    """

    winners: tuple[int, ...]
    reason: str
    draw: bool = False
    scores: tuple[float, ...] = ()

    def sharing(self, players: int) -> tuple[int, ...]:
        """The seats that share the result: ``winners``, or every seat on a draw that names none
        (the older shape of everybody level); none when nobody at the table won."""
        return self.winners or (tuple(range(players)) if self.draw else ())

    def payoff(self, seat: int, players: int) -> float:
        """1 for a sole win, 1/k each for k seats sharing the result (a shared win or a draw),
        else 0: the payoffs of a match sum to 1, or to 0 when nobody won. A seat outside a
        shared win gets nothing, whether or not ``draw`` is set."""
        sharing = self.sharing(players)
        return 1.0 / len(sharing) if seat in sharing else 0.0

    def canonical(self, players: int) -> Outcome:
        """The one shape every record and view uses, in every game: the seats that win, or that
        end level and share the result, in ``winners`` (ascending); ``draw`` is true exactly when
        several seats share it; nobody winning (the dragon) is no winners and no draw."""
        winners = tuple(sorted(self.sharing(players)))
        return Outcome(winners, self.reason, len(winners) > 1, self.scores)

    def to_json(self) -> JSON:
        data: JSON = {"winners": list(self.winners), "reason": self.reason, "draw": self.draw}
        if self.scores:
            data["scores"] = list(self.scores)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Outcome:
        return cls(
            winners=tuple(int(s) for s in data["winners"]),
            reason=str(data["reason"]),
            draw=bool(data.get("draw", False)),
            scores=tuple(data.get("scores", ())),
        )


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened, for the match log.

    ``data`` is public; ``secret`` maps a seat to extra fields only that seat may see (e.g. which
    cards it drew). Clients render ``kind`` + fields in their own language.
    """

    kind: str
    data: Mapping[str, Any] = field(default_factory=dict)
    secret: Mapping[int, Mapping[str, Any]] = field(default_factory=dict)

    def for_seat(self, seat: int | None) -> JSON:
        """The event as ``seat`` may see it (``None`` = a spectator: public fields only)."""
        shown: JSON = {"kind": self.kind, **self.data}
        if seat is not None and seat in self.secret:
            shown.update(self.secret[seat])
        return shown
