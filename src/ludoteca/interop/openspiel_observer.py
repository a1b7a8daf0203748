"""What a seat sees of one of our games, in OpenSpiel's observer protocol (``Observer``): tensors
from the game's encoding, strings from its observation."""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found]

from .encoding import Tensor, canonical, private_part
from .openspiel_entry import Shared
from .openspiel_state import LudotecaState


class Observer:
    """OpenSpiel's observer protocol: ``tensor``, ``dict``, ``set_from``, ``string_from``.

    Strings are the canonical JSON of ``Game.observation(state, seat)`` prefixed with the seat;
    the information state adds every action so far (player actions and explicit chance outcomes,
    which are public in these games). Private-only views are the fields of the seat's
    observation that a spectator's lacks; public-only views are the spectator's observation.
    """

    def __init__(self, shared: Shared, iig_obs_type: Any) -> None:
        private = pyspiel.PrivateInfoType
        self.shared = shared
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        self.public = bool(iig_obs_type.public_info)
        self.private = iig_obs_type.private_info
        self.recall = bool(iig_obs_type.perfect_recall)
        self.tensor: Tensor | None = None
        self.dict: dict[str, Tensor] = {}
        if self.public and self.private in (private.SINGLE_PLAYER, private.NONE):
            self.tensor = np.zeros(shared.encoding.size, dtype=np.float32)
            self.dict = shared.encoding.views(self.tensor)

    def _seat(self, player: int) -> int | None:
        return player if self.private == pyspiel.PrivateInfoType.SINGLE_PLAYER else None

    def set_from(self, state: LudotecaState, player: int) -> None:
        if self.tensor is None:
            return
        seat = self._seat(player)
        position = state.position
        if position.state is None:  # explicit set-up still rolling: nothing to see yet
            self.tensor.fill(0.0)
            if seat is not None:
                self.dict["observer"][seat] = 1.0
            return
        obs = self.shared.game.observation(position.state, seat)
        self.shared.encoding.write(obs, seat, self.tensor, self.dict)

    def string_from(self, state: LudotecaState, player: int) -> str:
        position, game = state.position, self.shared.game
        everyone = self.private == pyspiel.PrivateInfoType.ALL_PLAYERS
        seats = range(self.shared.players) if everyone else (player,)
        if not self.public:
            if self.private == pyspiel.PrivateInfoType.NONE or position.state is None:
                return ""
            parts = {s: private_part(game, position.state, s) for s in seats}
            shown = {s: part for s, part in parts.items() if part}
            return canonical(shown) if shown else ""
        seen: Any = None
        if position.state is not None:
            if everyone:
                seen = [game.observation(position.state, s) for s in seats]
            else:
                seen = game.observation(position.state, self._seat(player))
        text = f"seat {player}: " if self._seat(player) is not None else ""
        text += canonical(seen)
        if self.recall:
            history = " ".join(f"{h.player}:{h.action}" for h in state.full_history())
            text = f"{text}\nhistory: {history}"
        return text
