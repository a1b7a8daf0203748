"""Numbers for research frameworks: each game's encoding (``Game.encoding``, in the game's
package) with numpy arrays for its tensors. The layouts are listed in ``docs/research.md``."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import numpy.typing as npt

from ludoteca.core import JSON, Game
from ludoteca.core.encoding import Encoding, EncodingError
from ludoteca.games import all_games, get

Tensor = npt.NDArray[np.float32]
AnyGame = Game[Any, Any]

__all__ = ["Encoding", "EncodingError", "Tensor", "canonical", "encoding", "private_part", "tensor"]


def encoding(game_id: str, players: int) -> Encoding:
    """The encoding of ``game_id`` for ``players`` seats; EncodingError for a game without one."""
    found = get(game_id).encoding(players) if game_id in all_games() else None
    if found is None:
        games = all_games().values()
        known = ", ".join(g.spec.id for g in games if g.encoding(g.spec.min_players) is not None)
        raise EncodingError(f"no research encoding for '{game_id}' (known: {known})")
    return found


def tensor(layout: Encoding, game: AnyGame, state: Any, seat: int | None) -> Tensor:
    """The flat observation tensor of ``seat`` (None: a spectator) in ``state``."""
    flat = np.zeros(layout.size, dtype=np.float32)
    layout.write(game.observation(state, seat), seat, flat)
    return flat


def canonical(value: Any) -> str:
    """Canonical JSON: sorted keys, no spaces (the form of ``Game.info_key``)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def private_part(game: AnyGame, state: Any, seat: int) -> JSON:
    """What ``seat`` sees beyond a spectator: the top-level observation fields that differ."""
    mine, public = game.observation(state, seat), game.observation(state, None)
    return {key: value for key, value in mine.items() if public.get(key) != value}
