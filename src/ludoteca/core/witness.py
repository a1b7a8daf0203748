"""What a person's client keeps and checks from the table's creation (``docs/fairness.md``,
a person's client): every head it is shown, as a receipt; before it reveals, that the prelude it
holds gives the head it was shown and binds its own commitment and the server's commitment it was
shown when it sat; and after, that the table never shows anything else. The web table does the
same in ``table/deal.js``; tests use this one as the honest person's client.

A problem is one of:

- ``head``: the prelude sent does not give the head sent with it;
- ``history``: the prelude sent does not start with the one the client already checked (an
  event it was shown was changed or removed);
- ``secret``: the server's commitment is not the one shown when the person sat;
- ``commitment``: the table shows the person's seat with a commitment that is not theirs;
- ``withheld``: the table says the person withheld a reveal it acknowledged.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .prelude import Event, prelude_heads


@dataclass(slots=True)
class Witness:
    """One person's client at one table: ``own`` is the commitment it sent for ``seat``."""

    table: str
    seat: int
    own: str
    server: str | None = None
    prelude: list[Event] = field(default_factory=list)
    receipts: list[dict[str, Any]] = field(default_factory=list)
    revealed: bool = False
    problems: list[str] = field(default_factory=list)

    def _found(self, code: str) -> None:
        if code not in self.problems:
            self.problems.append(code)

    def see(self, message: dict[str, Any]) -> None:
        """A state message from the table: keep its head, check what it shows."""
        if message.get("type") != "state":
            return
        table = message["table"]
        if self.server is None:
            self.server = table["commitment"]
        elif table["commitment"] != self.server:
            self._found("secret")
        chain, prelude = message.get("chain"), message.get("prelude")
        if prelude:
            self._see_prelude(prelude, chain)
        elif chain is not None and table["status"] not in ("open", "starting"):
            self.receipts.append(
                {"table": self.table, "version": message["version"], "chain": chain}
            )
            view = message.get("view") or {}
            commitments = view.get("commitments") or []
            contributions = view.get("contributions") or []
            if self.seat < len(commitments) and commitments[self.seat] != self.own:
                self._found("commitment")
            if (
                self.revealed
                and self.seat < len(contributions)
                and contributions[self.seat] is None
            ):
                self._found("withheld")
            if self.prelude and not _dealt_as_checked(self.prelude, commitments, contributions):
                self._found("history")

    def _see_prelude(self, prelude: list[Event], chain: str | None) -> None:
        heads = prelude_heads(prelude)
        if heads[-1] != chain:
            self._found("head")
            return
        self.receipts.append({"table": self.table, "prelude": len(prelude), "chain": chain})
        if prelude[0].get("commitment") != self.server:
            self._found("secret")
        if prelude[: len(self.prelude)] != self.prelude:
            self._found("history")  # the prelude it checked stays the one it holds
            for code, _ in _own_problems(self, prelude):
                if code:
                    self._found(code)
            return
        self.prelude = list(prelude)
        for code, revealed in _own_problems(self, prelude):
            if code:
                self._found(code)
            self.revealed = self.revealed or revealed  # acknowledged: bound by the head kept

    def may_reveal(self) -> bool:
        """Reveal only against a head it checked: the commitments closed in the prelude it holds,
        which binds its own commitment (its last for this seat) and the server's commitment it
        was shown when it sat, and nothing it was shown has disagreed."""
        if self.problems or not self.prelude:
            return False
        closed = any(e["event"] == "close" for e in self.prelude)
        last = _last_commit(self.prelude, self.seat)
        return closed and last is not None and last["commitment"] == self.own


def _dealt_as_checked(
    prelude: list[Event], commitments: list[str | None], contributions: list[str | None]
) -> bool:
    """Whether the deal's seats show every commitment and reveal of the prelude the client
    checked (a seat's last commitment; a reveal made before it checked)."""
    for event in prelude:
        seat = event.get("seat")
        if not isinstance(seat, int) or seat >= len(commitments):
            continue
        last = event["event"] == "commit" and _last_commit(prelude, seat) is event
        if last and commitments[seat] != event["commitment"]:
            return False
        if event["event"] == "reveal" and contributions[seat] != event["contribution"]:
            return False
    return True


def _last_commit(prelude: list[Event], seat: int) -> Event | None:
    """The seat's last commitment, unless the seat was freed after it."""
    last = None
    for event in prelude:
        if event.get("seat") == seat and event["event"] in ("commit", "leave", "sit"):
            last = event if event["event"] == "commit" else None
    return last


def _own_problems(witness: Witness, prelude: list[Event]) -> list[tuple[str, bool]]:
    """What a prelude says of the witness's own seat: ``(problem or "", revealed)`` items."""
    mine = [e for e in prelude if e.get("seat") == witness.seat]
    found: list[tuple[str, bool]] = [("", any(e["event"] == "reveal" for e in mine))]
    last_commit = _last_commit(prelude, witness.seat)  # not one made before a leave
    if last_commit is not None and last_commit["commitment"] != witness.own:
        found.append(("commitment", False))
    if witness.revealed and not found[0][1]:
        found.append(("withheld", False))  # a reveal it was shown acknowledged is gone
    if witness.revealed and any(e["event"] == "withheld" for e in mine):
        found.append(("withheld", False))
    return found


__all__ = ["Witness"]
