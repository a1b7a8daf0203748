"""Matches on the bare rules (no ``Match``, no server), for tests that need where one ends."""

from __future__ import annotations

import random
from typing import Any

from ludoteca.core import Game


def random_end(game: Game[Any, Any], players: int, seed: str, pick: random.Random) -> Any:
    """The last position of a match dealt from ``seed``, each action drawn by ``pick``."""
    state = game.new({"players": players}, seed)
    while actions := game.legal_actions(state):
        game.step(state, pick.choice(actions))
    return state


def ended_record(how: str, game_id: str = "dice-heroes", moves: int = 0) -> dict[str, Any]:
    """A signed format-5 record of a match that ended other than by the rules: ``how`` is
    ``abort`` (the person at seat 0 aborts before their first move, after ``moves`` bot steps at
    most), ``operator`` (after ``moves`` steps of both seats) or ``resign`` (the person at seat 0
    resigns after ``moves`` steps of both seats: the bot wins); docs/records.md#an-ended-match."""
    from ludoteca.cli.play import table_deal  # noqa: PLC0415
    from ludoteca.core import Match, Player, SigningKey  # noqa: PLC0415
    from ludoteca.core.ending import aborted, by_operator, resigned  # noqa: PLC0415
    from ludoteca.games import get  # noqa: PLC0415

    game = get(game_id)
    seats = [Player("Ana"), Player("Bot 2 (random)", bot=True, level="random")]
    given = ("ab" * 32, f"ended-{how}", "ana-seed", "5" * 32)
    match = Match(game, {"players": 2}, table_deal(game, {"players": 2}, seats, 0, given), seats)
    pick = random.Random(7)
    for _ in range(moves):
        seat = match.to_move
        if seat is None or (how == "abort" and seat == 0):
            break
        match.act(seat, pick.choice(match.legal(seat)), by="bot" if seat else "player")
    match.end({"abort": aborted(0), "resign": resigned(0)}.get(how) or by_operator())
    data: dict[str, Any] = match.record().sign(SigningKey.generate()).to_json()
    return data
