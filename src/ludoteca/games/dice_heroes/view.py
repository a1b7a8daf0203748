"""Dice Heroes: what each seat sees. Nothing is hidden in this game but future dice, so every seat
and a spectator see the same observation (documented in ``docs/notation/dice-heroes.md``)."""

from __future__ import annotations

from ludoteca.core import JSON

from .dice import SWORDS, X
from .notation import colour_counts, die_json
from .rules import HEROES, HUES, ROLLS, DiceState, lying_swords, scores, to_beat


def observation(state: DiceState, seat: int | None) -> JSON:
    """Everything on the table, the same for every ``seat`` (nothing is hidden but future dice)."""
    final = scores(state)
    seats = []
    for s in range(state.players):
        base = s * HUES
        at_posters = [0] * HUES
        if s == state.holder:
            for colour, _ in state.laid:
                at_posters[colour] += 1
        seats.append(
            {
                "seat": s,
                "hero": HEROES[s],
                "troop": colour_counts(state.troop[base : base + HUES]),
                "tableau": colour_counts(state.tableau[base : base + HUES]),
                "at_posters": colour_counts(at_posters),
                "coins": state.coins[s],
                "posters": list(state.taken[s]),
                "score": final[s],
                "marker": state.marker and s == state.holder,
            }
        )
    turn = None
    if state.seat >= 0:
        live = [f for f in state.faces if f != X]
        swords = sum(SWORDS[f] for f in live)
        turn = {
            "seat": state.seat,
            "roll": state.roll,
            "rolls_left": ROLLS - state.roll,
            "dice": [
                {"die": n, **die_json(c, f), "swords": SWORDS[f], "locked": f == X}
                for n, (c, f) in enumerate(zip(state.colours, state.faces, strict=True), 1)
            ],
            "swords": swords,
            "to_beat": to_beat(state),
            "would_lay": swords > 0 and (state.holder == state.seat or swords > to_beat(state)),
        }
    return {
        "duel": state.players == 2,
        "seats": seats,
        "posters_left": list(state.posters),
        "holder": state.holder if state.holder >= 0 else None,
        "laid": [{**die_json(c, f), "swords": SWORDS[f]} for c, f in state.laid],
        "laid_swords": lying_swords(state),
        "turn": turn,
    }
