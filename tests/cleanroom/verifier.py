"""A match-record verifier written from docs/fairness.md, docs/records.md and docs/notation/ alone.

It does not import ludoteca and was written without reading its code: it is the clean-room test
of those pages. Standard library only (Ed25519 by the arithmetic of RFC 8032; the `cryptography`
package is used for speed when it is installed, and `--pure` forces the arithmetic).

    python tests/cleanroom/verifier.py RECORD.json... [--receipt FILE] [--key FILE] [--pure]

prints one line per record: `ok` or `FAILED (<check>)` (`FAILED (actions) step N`), then the
message, and exits with status 1 when any record fails.

Format 5 (records.md "Format 5", "An ended match"): its chain runs from the table's creation
through the prelude, and a match that ended other than by the rules (`ended`) is checked; the
prelude's own rules (which events may follow which) are not re-implemented here: a prelude that
breaks them but leads to the record's head is `ludoteca verify`'s to catch.
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import itertools
import json
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

try:  # allowed for speed only; --pure (or its absence) uses the RFC 8032 arithmetic below
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
except ImportError:  # pragma: no cover
    Ed25519PublicKey = None  # type: ignore[assignment,misc]
    InvalidSignature = ValueError  # type: ignore[assignment,misc]

HEX = frozenset("0123456789abcdef")
CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


class Problem(Exception):
    """The first failing check: its name, the step for `actions`, and a message."""

    def __init__(self, check: str, message: str, step: int | None = None) -> None:
        super().__init__(message)
        self.check = check
        self.message = message
        self.step = step


class Illegal(Exception):
    """An action that is not legal now (the replay turns it into an `actions` problem)."""


# --------------------------------------------------------------------------- hashing


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def canonical_json(value: object) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def fingerprint(hex_hash: str, bits: int = 80) -> str:
    digits = bits // 4
    number = int(hex_hash[:digits], 16)
    chars = bits // 5
    text = "".join(CROCKFORD[(number >> (5 * (chars - 1 - i))) & 31] for i in range(chars))
    return "-".join(text[i : i + 4] for i in range(0, chars, 4))


def is_hex(value: object, length: int) -> bool:
    return isinstance(value, str) and len(value) == length and set(value) <= HEX


class Stream:
    """The match's random stream: SHA-256 blocks of `seed:b`, big-endian 32-bit words."""

    def __init__(self, seed: str) -> None:
        self.seed = seed
        self.used = 0
        self._block = -1
        self._words: list[int] = []

    def word(self) -> int:
        block, index = divmod(self.used, 8)
        if block != self._block:
            digest = hashlib.sha256(f"{self.seed}:{block}".encode()).digest()
            self._words = [int.from_bytes(digest[i : i + 4], "big") for i in range(0, 32, 4)]
            self._block = block
        self.used += 1
        return self._words[index]

    def below(self, n: int) -> int:
        limit = 2**32 - (2**32 % n)
        while True:
            w = self.word()
            if w < limit:
                return w % n

    def shuffle(self, items: list[Any]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


# --------------------------------------------------------------------------- Ed25519 (RFC 8032)

_P = 2**255 - 19
_Q = 2**252 + 27742317777372353535851937790883648493
_D = -121665 * pow(121666, _P - 2, _P) % _P
_SQRT_M1 = pow(2, (_P - 1) // 4, _P)
Point = tuple[int, int, int, int]


def _add(a: Point, b: Point) -> Point:
    x1, y1, z1, t1 = a
    x2, y2, z2, t2 = b
    aa = (y1 - x1) * (y2 - x2) % _P
    bb = (y1 + x1) * (y2 + x2) % _P
    cc = 2 * t1 * t2 * _D % _P
    dd = 2 * z1 * z2 % _P
    e, f, g, h = bb - aa, dd - cc, dd + cc, bb + aa
    return (e * f % _P, g * h % _P, f * g % _P, e * h % _P)


def _mul(s: int, point: Point) -> Point:
    result: Point = (0, 1, 1, 0)
    while s:
        if s & 1:
            result = _add(result, point)
        point = _add(point, point)
        s >>= 1
    return result


def _equal(a: Point, b: Point) -> bool:
    return (a[0] * b[2] - b[0] * a[2]) % _P == 0 and (a[1] * b[2] - b[1] * a[2]) % _P == 0


def _recover_x(y: int, sign: int) -> int | None:
    if y >= _P:
        return None
    x2 = (y * y - 1) * pow(_D * y * y + 1, _P - 2, _P) % _P
    if x2 == 0:
        return None if sign else 0
    x = pow(x2, (_P + 3) // 8, _P)
    if (x * x - x2) % _P:
        x = x * _SQRT_M1 % _P
    if (x * x - x2) % _P:
        return None
    if (x & 1) != sign:
        x = _P - x
    return x


def _decompress(data: bytes) -> Point | None:
    y = int.from_bytes(data, "little")
    sign = y >> 255
    y &= (1 << 255) - 1
    x = _recover_x(y, sign)
    return None if x is None else (x, y, 1, x * y % _P)


_GY = 4 * pow(5, _P - 2, _P) % _P
_G: Point = (_recover_x(_GY, 0) or 0, _GY, 1, (_recover_x(_GY, 0) or 0) * _GY % _P)


def ed25519_verify_pure(public: bytes, message: bytes, signature: bytes) -> bool:
    if len(public) != 32 or len(signature) != 64:
        return False
    a = _decompress(public)
    r = _decompress(signature[:32])
    if a is None or r is None:
        return False
    s = int.from_bytes(signature[32:], "little")
    if s >= _Q:
        return False
    h = int.from_bytes(hashlib.sha512(signature[:32] + public + message).digest(), "little") % _Q
    return _equal(_mul(s, _G), _add(r, _mul(h, a)))


def ed25519_verify(public: bytes, message: bytes, signature: bytes, pure: bool = False) -> bool:
    if not pure and Ed25519PublicKey is not None:
        try:
            Ed25519PublicKey.from_public_bytes(public).verify(signature, message)
        except (InvalidSignature, ValueError):
            return False
        return True
    return ed25519_verify_pure(public, message, signature)


# --------------------------------------------------------------------------- games


class Game:
    """One match in play: `to_move`, `legal()` (canonical texts in order), `play(text)`."""

    players: int
    to_move: int | None
    outcome: dict[str, Any] | None

    def legal(self) -> list[str]:
        raise NotImplementedError

    def play(self, text: str) -> None:
        raise NotImplementedError


def make_outcome(winners: list[int], reason: str, scores: list[Any]) -> dict[str, Any]:
    return {
        "winners": sorted(winners),
        "reason": reason,
        "draw": len(winners) > 1,
        "scores": scores,
    }


# ---- Heroes & Relics

ROLES = ["halfling", "bard", "ranger", "fighter", "rogue", "wizard", "cleric", "paladin"]
HALFLING, BARD, RANGER, FIGHTER, ROGUE, WIZARD, CLERIC, PALADIN = range(8)
ROOMS = [f"{c}{r}" for r in range(1, 6) for c in "abc"]
CAMP = 15
SANCTUARIES = (6, 8)  # a3, c3


def _adjacent(room: int) -> list[int]:
    row, col = divmod(room, 3)
    out = []
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        r, c = row + dr, col + dc
        if 0 <= r < 5 and 0 <= c < 3:
            out.append(r * 3 + c)
    return sorted(out)


ADJ = [_adjacent(r) for r in range(15)]
WARDS: list[tuple[list[int], int]] = []
for _k in range(8):
    _row, _col = divmod(_k, 2)
    _top = _row * 3 + _col
    WARDS.append(([_top, _top + 1, _top + 3, _top + 4], 1 if _k in (0, 1, 6, 7) else 2))
OWN_ROW = ([0, 1, 2], [12, 13, 14])
RIVAL_ROW = ([12, 13, 14], [0, 1, 2])


class Heroes(Game):
    def __init__(self, players: int, stream: Stream) -> None:
        self.players = 2
        self.rng = stream
        groups = []
        for _seat in range(2):
            group = [role for role in range(8) for _ in range(3)]
            stream.shuffle(group)
            groups.append(group)
        first = stream.below(2)
        self.reserve = [g[4:] for g in groups]
        self.hand = [[0] * 8 for _ in range(2)]
        self.rooms: list[list[tuple[int, int]]] = [[] for _ in range(15)]
        self.relics = [0, 0]
        self.sealed: list[int | None] = [None] * 8
        self.pending: tuple[str, int] | None = None
        self.outcome = None
        for seat in range(2):
            self._take(seat, 4)
        self.to_move = first

    def _hand_size(self, seat: int) -> int:
        return sum(self.hand[seat])

    def _take(self, seat: int, k: int) -> None:
        for _ in range(k):
            self.hand[seat][self.reserve[seat].pop(0)] += 1

    def _amount(self, seat: int) -> int:
        size, left = self._hand_size(seat), len(self.reserve[seat])
        if size >= 8 or left == 0:
            return 0
        if size == 7 or left == 1:
            return 1
        return 2

    def _draw_one(self, seat: int) -> None:
        if self._hand_size(seat) < 8 and self.reserve[seat]:
            self._take(seat, 1)

    def _top(self, room: int) -> tuple[int, int] | None:
        stack = self.rooms[room]
        return stack[-1] if stack else None

    def _chain(self, seat: int) -> set[int]:
        todo = [r for r in OWN_ROW[seat] if (t := self._top(r)) is not None and t[0] == seat]
        chain = set(todo)
        while todo:
            room = todo.pop()
            for other in ADJ[room]:
                top = self._top(other)
                if other not in chain and top is not None and top[0] == seat:
                    chain.add(other)
                    todo.append(other)
        return chain

    def _stacks(self, seat: int, role: int, room: int) -> bool:
        top = self._top(room)
        if top is None:
            return True
        owner, top_role = top
        if owner == seat:
            return role != top_role
        if top_role == HALFLING:
            return True
        return role == HALFLING or role > top_role

    def _placements(self, seat: int) -> list[tuple[int, int]]:
        chain = self._chain(seat)
        reach = set(OWN_ROW[seat]) | chain
        for room in chain:
            reach.update(ADJ[room])
        camp = any(r in chain for r in RIVAL_ROW[seat])
        out = []
        for role in range(8):
            if not self.hand[seat][role]:
                continue
            for room in range(15):
                if (role == ROGUE or room in reach) and self._stacks(seat, role, room):
                    out.append((role, room))
            if camp:
                out.append((role, CAMP))
        return out

    @staticmethod
    def _place_text(role: int, room: int) -> str:
        return f"place {ROLES[role]} {'camp' if room == CAMP else ROOMS[room]}"

    def legal(self) -> list[str]:
        if self.outcome is not None or self.to_move is None:
            return []
        seat = self.to_move
        if self.pending is None:
            out = ["draw"] if self._amount(seat) > 0 else []
            return out + [self._place_text(r, t) for r, t in self._placements(seat)]
        kind, room = self.pending
        if kind == "strike":
            return [f"strike {ROOMS[r]}" for r in self._strikable(seat, room)] + ["skip"]
        return [self._place_text(r, t) for r, t in self._placements(seat)] + ["skip"]

    def _strikable(self, seat: int, room: int) -> list[int]:
        return [r for r in ADJ[room] if (t := self._top(r)) is not None and t[0] != seat]

    def _end(self, winners: list[int], reason: str) -> None:
        self.outcome = make_outcome(winners, reason, [float(x) for x in self.relics])
        self.to_move = None
        self.pending = None

    def _seal(self, room: int) -> bool:
        top = self._top(room)
        if top is None:
            return False
        p = top[0]
        for w, (rooms, relics) in enumerate(WARDS):
            if (
                room in rooms
                and self.sealed[w] is None
                and all((t := self._top(r)) is not None and t[0] == p for r in rooms)
            ):
                self.sealed[w] = p
                self.relics[p] += relics
        if self.relics[p] >= 6:
            self._end([p], "relics")
            return True
        return False

    def _end_turn(self) -> None:
        self.pending = None
        assert self.to_move is not None
        nxt = 1 - self.to_move
        self.to_move = nxt
        if self._amount(nxt) == 0 and not self._placements(nxt):
            a, b = self.relics
            self._end([0] if a > b else [1] if b > a else [0, 1], "stuck")

    def play(self, text: str) -> None:
        if text not in self.legal():
            raise Illegal(text)
        seat = self.to_move
        assert seat is not None
        words = text.split()
        if words[0] == "draw":
            self._take(seat, self._amount(seat))
            self._end_turn()
        elif words[0] == "skip":
            assert self.pending is not None
            kind, room = self.pending
            if kind == "strike" and room in SANCTUARIES:
                self._draw_one(seat)
            self._end_turn()
        elif words[0] == "strike":
            assert self.pending is not None
            fighter_room = self.pending[1]
            room = ROOMS.index(words[1])
            owner, role = self.rooms[room].pop()
            del owner, role
            if self._seal(room):
                return
            if fighter_room in SANCTUARIES:
                self._draw_one(seat)
            self._end_turn()
        else:
            role = ROLES.index(words[1])
            target = CAMP if words[2] == "camp" else ROOMS.index(words[2])
            self._place(seat, role, target)

    def _place(self, seat: int, role: int, target: int) -> None:
        self.pending = None
        self.hand[seat][role] -= 1
        if target == CAMP:
            self._end([seat], "camp")
            return
        self.rooms[target].append((seat, role))
        if self._seal(target):
            return
        rival = 1 - seat
        if role == BARD:
            self._take(seat, self._amount(seat))
        elif role == CLERIC:
            self._draw_one(seat)
        elif role == WIZARD:
            n = self._hand_size(rival)
            if n:
                i = self.rng.below(n)
                ordered = [r for r in range(8) for _ in range(self.hand[rival][r])]
                self.hand[rival][ordered[i]] -= 1
        elif role == FIGHTER and self._strikable(seat, target):
            self.pending = ("strike", target)
            return
        if target in SANCTUARIES:
            self._draw_one(seat)
        if role == RANGER and self._placements(seat):
            self.pending = ("ranger", target)
            return
        self._end_turn()


# ---- Dice Heroes

COLOURS = ["white", "yellow", "red"]
FACES = [
    ["sword1", "sword2", "sword3", "coin", "coin", "yellow-die"],
    ["sword1", "sword2", "sword3", "coin", "red-die", "x"],
    ["sword1", "sword2", "sword3", "coin", "coin", "x"],
]
SWORDS = {"sword1": 1, "sword2": 2, "sword3": 3}


class DiceHeroes(Game):
    def __init__(self, players: int, stream: Stream) -> None:
        self.players = n = players
        self.rng = stream
        self.troop = [[3, 0, 0] for _ in range(n)]
        self.tableau = [[0, 3, 3] for _ in range(n)]
        self.coins = [0] * n
        self.taken: list[list[int]] = [[] for _ in range(n)]
        self.posters = [5, 10, 10, 10, 15] if n == 2 else [5, 10, 10, 10, 10, 10, 15]
        self.holder: int | None = None
        self.laid: list[tuple[int, str]] = []
        self.marker = False
        self.outcome = None
        self.to_move = None
        contenders = list(range(n))
        while True:
            rolls = {}
            for seat in contenders:
                rolls[seat] = [FACES[0][stream.below(6)] for _ in range(3)]
            swords = {s: sum(SWORDS.get(f, 0) for f in rolls[s]) for s in contenders}
            best = max(swords.values())
            contenders = [s for s in contenders if swords[s] == best]
            if len(contenders) == 1:
                break
        holder = contenders[0]
        for face in rolls[holder]:
            if face in SWORDS:
                self.troop[holder][0] -= 1
                self.laid.append((0, face))
        self.holder = holder
        self._start_turn((holder + 1) % n)

    def _start_turn(self, seat: int) -> None:
        if self.holder == seat:
            for colour, _face in self.laid:
                self.troop[seat][colour] += 1
            self.laid = []
            if self.players == 2 and not self.marker:
                self.marker = True
            else:
                self.taken[seat].append(self.posters.pop(0))
                self.holder = None
                self.marker = False
                if not self.posters:
                    scores = [self.coins[s] + sum(self.taken[s]) for s in range(self.players)]
                    best = max(scores)
                    self.outcome = make_outcome(
                        [s for s in range(self.players) if scores[s] == best], "score", scores
                    )
                    self.to_move = None
                    return
        self.to_move = seat
        self.dice: list[list[Any]] = []  # [colour, face, locked]
        for colour in range(3):
            for _ in range(self.troop[seat][colour]):
                self.dice.append([colour, None, False])
        self.rolls = 0
        self._roll(list(range(len(self.dice))))

    def _roll(self, indices: list[int]) -> None:
        seat = self.to_move
        assert seat is not None
        for i in indices:
            die = self.dice[i]
            die[1] = FACES[die[0]][self.rng.below(6)]
            if die[1] == "x":
                die[2] = True
                self.troop[seat][die[0]] -= 1
                self.tableau[seat][die[0]] += 1
        self.rolls += 1
        if self.rolls >= 3 or all(d[2] for d in self.dice):
            self._end_turn()

    def legal(self) -> list[str]:
        if self.to_move is None:
            return []
        unlocked = [i + 1 for i, d in enumerate(self.dice) if not d[2]]
        out = ["stop"]
        for size in range(1, len(unlocked) + 1):
            for combo in itertools.combinations(unlocked, size):
                out.append("reroll " + " ".join(map(str, combo)))
        return out

    def play(self, text: str) -> None:
        if self.to_move is None:
            raise Illegal(text)
        if text not in self.legal():
            raise Illegal(text)
        if text == "stop":
            self._end_turn()
            return
        nums = [int(w) for w in text.split()[1:]]
        self._roll([k - 1 for k in nums])

    def _end_turn(self) -> None:
        seat = self.to_move
        assert seat is not None
        final = [d for d in self.dice if not d[2]]
        s = sum(SWORDS.get(d[1], 0) for d in final)
        # The holder (beside its own marker) always succeeds; anyone else must beat the laid dice.
        if s > 0 and (self.holder == seat or s > sum(SWORDS[f] for _c, f in self.laid)):
            if self.holder is not None and self.holder != seat:
                for colour, _face in self.laid:
                    self.troop[self.holder][colour] += 1
                self.laid = []
                self.marker = False
            for d in final:
                if d[1] in SWORDS:
                    self.troop[seat][d[0]] -= 1
                    self.laid.append((d[0], d[1]))
            self.holder = seat
        c = sum(1 for d in final if d[1] == "coin")
        self.coins[seat] += c if s > 0 else 2 * c
        for colour, face in ((1, "yellow-die"), (2, "red-die")):
            g = sum(1 for d in final if d[1] == face)
            moved = min(g, self.tableau[seat][colour])
            self.tableau[seat][colour] -= moved
            self.troop[seat][colour] += moved
        self._start_turn((seat + 1) % self.players)


# ---- Return of the Dwarves

DIE = ["yellow", "red", "blue", "green", "orange", "purple"]
STONES = ["gold", "ruby", "sapphire", "emerald", "garnet", "diamond"]
DWARF_COLOURS = ["red", "yellow", "green", "blue", "orange", "purple"]


def _tile_colour(kind: str) -> str:
    return "grey" if kind in ("portal", "passage") else kind


@dataclass
class Dwarf:
    colour: str
    seat: int | None
    tile: int
    chest: list[int]  # count per stone kind


class Dwarves(Game):
    def __init__(self, players: int, stream: Stream) -> None:
        self.players = players
        self.rng = stream
        big = players >= 5
        tiles = ["blue", "blue", "green", "green", "orange", "passage", "portal", "purple"]
        tiles += ["red", "red", "yellow", "yellow"]
        if big:
            tiles += ["orange", "purple"]
            tiles.sort()
        self.n = n = len(tiles)
        ring = list(tiles)
        while True:
            stream.shuffle(ring)
            changed_scans = 0
            accepted = False
            while True:
                changed = False
                for i in range(n):
                    if _tile_colour(ring[(i + 1) % n]) == _tile_colour(ring[i]):
                        a, b = (i + 1) % n, (i + 2) % n
                        ring[a], ring[b] = ring[b], ring[a]
                        changed = True
                if not changed:
                    accepted = True
                    break
                changed_scans += 1
                if changed_scans == 12:
                    accepted = all(
                        _tile_colour(ring[i]) != _tile_colour(ring[(i + 1) % n]) for i in range(n)
                    )
                    break
            if accepted:
                break
        self.ring = ring
        self.colour = [_tile_colour(k) for k in ring]
        per = 6 if big else 5
        pool = [k for k in range(5) for _ in range(per)] + [5]
        stream.shuffle(pool)
        self.pool = pool
        if players == 2:
            order = [("red", 0), ("green", None), ("yellow", 1), ("blue", None)]
        elif players == 3:
            order = [("red", 0), ("blue", None), ("yellow", 1), ("green", 2)]
        else:
            order = [(DWARF_COLOURS[s], s) for s in range(players)]
        portal = ring.index("portal")
        passage = ring.index("passage")
        self.dwarves = [Dwarf(c, s, self._next_of(portal, c), [0] * 6) for c, s in order]
        self.hobbit = passage
        self.dragon = portal
        self.hoard = [0] * 6
        start = None
        for i in range(1, n):
            t = (passage + i) % n
            for k, d in enumerate(self.dwarves):
                if d.tile == t and d.seat is not None:
                    start = k
                    break
            if start is not None:
                break
        assert start is not None
        self.start = start
        for d in self.dwarves:
            for _ in range(3):
                d.chest[self.pool.pop()] += 1
        self.round = 1
        self.outcome = None
        self.turn = start
        self.phase = "move"
        self.queue: list[int] = []
        self._roll()

    # ring helpers
    def _next_of(self, t: int, colour: str) -> int:
        for d in range(1, self.n):
            if self.colour[(t + d) % self.n] == colour:
                return (t + d) % self.n
        return t

    def _free_ccw(self, t: int, avoid: set[int]) -> int:
        for d in range(1, self.n):
            if (t - d) % self.n not in avoid:
                return (t - d) % self.n
        return t

    def _roll(self) -> None:
        self.grey = self.rng.below(6)
        self.white = self.rng.below(6)

    def _random_stone(self, chest: list[int]) -> int:
        r = self.rng.below(sum(chest))
        for kind in range(6):
            if r < chest[kind]:
                return kind
            r -= chest[kind]
        raise AssertionError

    @property
    def to_move(self) -> int | None:  # type: ignore[override]
        if self.outcome is not None:
            return None
        return self.dwarves[self.turn].seat

    def _destinations(self) -> list[int]:
        h = self.dwarves[self.turn].tile
        if self.grey == self.white:
            return [(h + d) % self.n for d in range(1, self.n + 1)]
        out: list[int] = []
        for t in (
            self._next_of(h, DIE[self.grey]),
            self._next_of(h, DIE[self.white]),
            (h + 1) % self.n,
            h,
        ):
            if t not in out:
                out.append(t)
        return out

    def _can_meet(self, mover: Dwarf, other: Dwarf) -> bool:
        mt, ot = sum(mover.chest), sum(other.chest)
        return (mt > 0 and ot > 0) or ot >= mt + 2

    def _options(self) -> list[str]:
        mover, other = self.dwarves[self.turn], self.dwarves[self.queue[0]]
        out = []
        if sum(mover.chest) and sum(other.chest):
            if other.seat is None:
                out.append("trade blind")
            else:
                for g in range(6):
                    if mover.chest[g]:
                        for t in range(6):
                            if other.chest[t]:
                                out.append(f"trade {STONES[g]} {STONES[t]}")
        if sum(other.chest) >= sum(mover.chest) + 2:
            out += [f"steal {STONES[k]}" for k in range(6) if other.chest[k]]
        return out

    def legal(self) -> list[str]:
        if self.outcome is not None:
            return []
        if self.phase == "move":
            return [f"to {t}" for t in self._destinations()]
        return self._options()

    def play(self, text: str) -> None:
        if text not in self.legal():
            raise Illegal(text)
        words = text.split()
        mover = self.dwarves[self.turn]
        if self.phase == "move":
            mover.tile = int(words[1])
            self._arrive(self.turn)
            self.queue = self._others_after(self.turn)
            self._next_meeting()
            return
        other = self.dwarves[self.queue.pop(0)]
        if words[0] == "steal":
            k = STONES.index(words[1])
            other.chest[k] -= 1
            mover.chest[k] += 1
        elif words[1] == "blind":
            self._blind(mover, other)
        else:
            g, t = STONES.index(words[1]), STONES.index(words[2])
            mover.chest[g] -= 1
            other.chest[g] += 1
            other.chest[t] -= 1
            mover.chest[t] += 1
        self._next_meeting()

    def _blind(self, first: Dwarf, second: Dwarf) -> None:
        a = self._random_stone(first.chest)
        b = self._random_stone(second.chest)
        first.chest[a] -= 1
        second.chest[a] += 1
        second.chest[b] -= 1
        first.chest[b] += 1

    def _others_after(self, k: int) -> list[int]:
        count = len(self.dwarves)
        tile = self.dwarves[k].tile
        order = [(k + i) % count for i in range(1, count)]
        return [j for j in order if self.dwarves[j].tile == tile]

    def _arrive(self, k: int) -> None:
        d = self.dwarves[k]
        if self.dragon == d.tile and sum(d.chest):
            self.hoard[self._random_stone_take(d.chest)] += 1
        if self.hobbit == d.tile:
            if self.pool:
                d.chest[self.pool.pop()] += 1
            avoid = {x.tile for x in self.dwarves} | {self.dragon}
            self.hobbit = self._free_ccw(d.tile, avoid)

    def _random_stone_take(self, chest: list[int]) -> int:
        kind = self._random_stone(chest)
        chest[kind] -= 1
        return kind

    def _next_meeting(self) -> None:
        mover = self.dwarves[self.turn]
        while self.queue and not self._can_meet(mover, self.dwarves[self.queue[0]]):
            self.queue.pop(0)
        if self.queue:
            self.phase = "meet"
            return
        self._advance()

    def _advance(self) -> None:
        count = len(self.dwarves)
        while True:
            nxt = (self.turn + 1) % count
            if nxt == self.start and self._round_end():
                return
            self.turn = nxt
            self._roll()
            d = self.dwarves[nxt]
            if d.seat is not None:
                self.phase = "move"
                return
            self._extra_turn(nxt)

    def _extra_turn(self, k: int) -> None:
        d = self.dwarves[k]
        if self.grey == self.white or self.hobbit == (d.tile + 1) % self.n:
            d.tile = self.hobbit
        else:
            d.tile = self._next_of(d.tile, DIE[self.white])
        self._arrive(k)
        for j in self._others_after(k):
            other = self.dwarves[j]
            if other.seat is not None and sum(d.chest) and sum(other.chest):
                self._blind(d, other)

    def _round_end(self) -> bool:
        self._roll()
        if self.grey == self.white:
            self.dragon = self.hobbit
            if self.pool:
                self.hoard[self.pool.pop()] += 1
        else:
            self.dragon = self._next_of(self.dragon, DIE[self.grey])
            for d in self.dwarves:
                if d.tile == self.dragon and sum(d.chest):
                    self.hoard[self._random_stone_take(d.chest)] += 1
        if self.hobbit == self.dragon or any(d.tile == self.dragon for d in self.dwarves):
            avoid = {x.tile for x in self.dwarves} | {self.hobbit}
            self.dragon = self._free_ccw(self.dragon, avoid)
        if not self.pool or self.round == 300:
            self._finish()
            return True
        self.round += 1
        return False

    @staticmethod
    def _key(chest: list[int]) -> tuple[int, ...]:
        c = sorted(chest[:5], reverse=True)
        return (c[0] + chest[5], sum(chest), c[1], c[2], c[3], c[4])

    def _finish(self) -> None:
        chests = [d.chest for d in self.dwarves] + [self.hoard]
        keys = [self._key(c) for c in chests]
        best = max(keys)
        tied = [i for i, k in enumerate(keys) if k == best]
        if len(tied) == 1:
            winner = tied[0]
        else:
            portal = self.ring.index("portal")
            tile = dict.fromkeys(tied, portal)
            run = dict.fromkeys(tied, 0)
            field = list(tied)
            winner = -1
            for _ in range(100):
                for i in field:
                    to = self._next_of(tile[i], DIE[self.rng.below(6)])
                    run[i] += (to - tile[i]) % self.n
                    tile[i] = to
                if any(run[i] >= self.n for i in field):
                    top = max(run[i] for i in field)
                    field = [i for i in field if run[i] == top]
                    if len(field) == 1:
                        winner = field[0]
                        break
            if winner < 0:
                top = max(run[i] for i in field)
                front = [i for i in field if run[i] == top]
                winner = front[self.rng.below(len(front))]
        scores: list[float] = [0.0] * self.players
        for d in self.dwarves:
            if d.seat is not None:
                scores[d.seat] = float(self._key(d.chest)[0])
        if winner == len(self.dwarves):
            winners, reason = [], "dragon"
        elif self.dwarves[winner].seat is None:
            winners, reason = [], "extra-dwarf"
        else:
            seat = self.dwarves[winner].seat
            assert seat is not None
            winners, reason = [seat], "race" if len(tied) > 1 else "score"
        self.outcome = make_outcome(winners, reason, scores)


GAMES: dict[str, tuple[Callable[[int, Stream], Game], int, int]] = {
    "dice-heroes": (DiceHeroes, 2, 4),
    "dwarves": (Dwarves, 2, 6),
    "heroes": (Heroes, 2, 2),
}


# --------------------------------------------------------------------------- the record


FIELDS = {
    1: {"format", "game", "params", "commitment", "fingerprint", "seed", "players", "actions"}
    | {"outcome"},
    2: {"format", "game", "params", "table", "commitment", "fingerprint", "contributions"}
    | {"secret", "seed", "players", "actions", "chain", "outcome", "signature"},
}
FIELDS[3] = FIELDS[2] | {"commitments", "salts"}
FIELDS[4] = FIELDS[3]
FIELDS[5] = FIELDS[4] | {"prelude", "ended"}
REASONS = {"abort": "aborted", "operator": "operator", "resign": "resigned"}
"""An ended match's outcome reason (records.md, An ended match)."""


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _unknown(obj: dict[str, Any], allowed: set[str]) -> str:
    return ", ".join(sorted(k for k in obj if k not in allowed))


def parse(rec: object) -> dict[str, Any]:
    """The `record` check: raise the first problem, in the order records.md lists them."""

    def bad(message: str) -> Problem:
        return Problem("record", message)

    if not isinstance(rec, dict):
        raise bad("a record is a JSON object")
    fmt = rec.get("format")
    if not _is_int(fmt) or fmt not in (1, 2, 3, 4, 5):
        raise bad(f"unknown record format {fmt!r} (expected 1, 2, 3, 4 or 5)")
    extra = _unknown(rec, FIELDS[fmt])
    if extra:
        raise bad(f"unknown field(s) for format {fmt}: {extra}")
    if not isinstance(rec.get("game"), str):
        raise bad("field 'game' is missing or not a str")
    if not isinstance(rec.get("params"), dict):
        raise bad("field 'params' is missing or not a dict")
    if not is_hex(rec.get("commitment"), 64):
        raise bad("field 'commitment' must be 64 lowercase hex digits")
    if fmt >= 2:
        for name in ("secret", "seed"):
            value = rec.get(name)
            if value is not None and not is_hex(value, 64):
                raise bad(f"field '{name}' must be 64 lowercase hex digits or null")
        if not is_hex(rec.get("chain"), 64):
            raise bad("field 'chain' must be 64 lowercase hex digits")
    elif rec.get("seed") is not None and not isinstance(rec.get("seed"), str):
        raise bad("field 'seed' must be a text or null")
    players = rec.get("players")
    if not isinstance(players, list) or not players:
        raise bad("field 'players' must be a non-empty list")
    for n, p in enumerate(players):
        if not isinstance(p, dict) or not isinstance(p.get("name"), str):
            raise bad(f"player {n}: needs a text 'name'")
        extra = _unknown(p, {"name", "bot", "level", "bot_from"})
        if extra:
            raise bad(f"player {n}: unknown field(s) {extra}")
        if not isinstance(p.get("bot"), bool):
            raise bad(f"player {n}: 'bot' must be true or false")
        if p.get("level") is not None and not isinstance(p.get("level"), str):
            raise bad(f"player {n}: 'level' must be a text")
        since = p.get("bot_from")
        if since is not None and (not _is_int(since) or since < 0 or not p["bot"]):
            raise bad(
                f"player {n}: 'bot_from' must be a step number (0 or more), and only for a bot"
            )
    actions = rec.get("actions")
    if not isinstance(actions, list):
        raise bad("field 'actions' must be a list")
    for n, step in enumerate(actions, 1):
        if not isinstance(step, dict):
            raise bad(f"step {n}: must be an object")
        extra = _unknown(step, {"seat", "action", "by"})
        if extra:
            raise bad(f"step {n}: unknown field(s) {extra}")
        seat = step.get("seat")
        if not _is_int(seat) or not 0 <= seat < len(players):
            raise bad(f"step {n}: 'seat' must be a seat number from 0 to {len(players) - 1}")
        if not isinstance(step.get("action"), str):
            raise bad(f"step {n}: 'action' must be a text")
        by = step.get("by", "player" if fmt == 1 else None)
        if by not in ("player", "bot", "table"):
            raise bad(f"step {n}: 'by' must be one of player, bot, table")
    outcome = rec.get("outcome")
    if outcome is not None:
        if not isinstance(outcome, dict):
            raise bad("field 'outcome' must be an object or null")
        extra = _unknown(outcome, {"winners", "reason", "draw", "scores"})
        if extra:
            raise bad(f"outcome: unknown field(s) {extra}")
        winners = outcome.get("winners")
        if not isinstance(winners, list) or not all(
            _is_int(w) and 0 <= w < len(players) for w in winners
        ):
            raise bad("outcome 'winners' must be a list of seat numbers")
        if not isinstance(outcome.get("reason"), str) or not isinstance(
            outcome.get("draw", False), bool
        ):
            raise bad("outcome needs a text 'reason' and a true/false 'draw'")
        scores = outcome.get("scores", [])
        if not isinstance(scores, list) or not all(_is_number(s) for s in scores):
            raise bad("outcome 'scores' must be a list of numbers")
    if fmt >= 2:
        table = rec.get("table")
        if not isinstance(table, str) or not 1 <= len(table) <= 64:
            raise bad("field 'table' must be a text of 1 to 64 characters")
        contributions = rec.get("contributions")
        if not isinstance(contributions, list) or len(contributions) != len(players):
            raise bad("field 'contributions' must be a list with one entry per seat")
        for s, c in enumerate(contributions):
            if c is None:
                continue
            if not isinstance(c, str):
                raise bad(f"contribution of seat {s}: a contribution is a text")
            if not 1 <= len(c) <= 64 or not all(0x21 <= ord(ch) <= 0x7E for ch in c):
                raise bad(
                    f"contribution of seat {s}: a contribution is 1 to 64 printable ASCII "
                    "characters without spaces"
                )
    if fmt >= 3:
        for name in ("commitments", "salts"):
            value = rec.get(name)
            if not isinstance(value, list) or len(value) != len(players):
                raise bad(f"field '{name}' must be a list with one entry per seat")
        for s, c in enumerate(rec["commitments"]):
            if c is not None and not is_hex(c, 64):
                raise bad(f"commitment of seat {s}: 64 lowercase hex digits or null")
        for s, z in enumerate(rec["salts"]):
            if z is not None and not is_hex(z, 32):
                raise bad(f"salt of seat {s}: a salt is 32 lowercase hex digits")
        for s in range(len(players)):
            c, z, p = rec["contributions"][s], rec["salts"][s], rec["commitments"][s]
            if (c is None) != (z is None) or (c is not None and p is None):
                raise bad(
                    f"seat {s}: a contribution is revealed with its salt, "
                    "and only by a seat that committed"
                )
    if fmt >= 5:
        prelude = rec.get("prelude")
        if not isinstance(prelude, list) or not prelude:
            raise bad("field 'prelude' must be a non-empty list of events")
        if not all(isinstance(e, dict) for e in prelude):
            raise bad("field 'prelude': every event is an object")
        if "ended" in rec and not _ended_shape(rec["ended"], len(players)):
            raise bad(
                'field \'ended\' must be {"by": "abort" or "resign", "seat": S} '
                'or {"by": "operator"}'
            )
    if fmt >= 2 and "signature" in rec:
        sig = rec["signature"]
        if not isinstance(sig, dict):
            raise bad("'signature' must be an object")
        for name, length in (("key_id", 16), ("public_key", 64), ("value", 128)):
            if not is_hex(sig.get(name), length):
                raise bad(f"signature '{name}' must be {length} lowercase hex digits")
        if sig.get("alg") != "ed25519":
            raise bad("signature 'alg' must be 'ed25519'")
        extra = _unknown(sig, {"alg", "key_id", "public_key", "value"})
        if extra:
            raise bad(f"unknown signature field(s) {extra}")
    return rec


def _ended_shape(ended: object, players: int) -> bool:
    if not isinstance(ended, dict):
        return False
    if ended.get("by") == "operator":
        return set(ended) == {"by"}
    seat = ended.get("seat")
    return (
        ended.get("by") in ("abort", "resign")
        and set(ended) == {"by", "seat"}
        and _is_int(seat)
        and 0 <= seat < players
    )


def signed_bytes(rec: dict[str, Any]) -> bytes:
    outcome = rec.get("outcome")
    signed_outcome = None
    if outcome is not None:
        signed_outcome = {
            "winners": outcome["winners"],
            "reason": outcome["reason"],
            "draw": outcome.get("draw", False),
        }
        if outcome.get("scores"):
            signed_outcome["scores"] = outcome["scores"]
    players = []
    for p in rec["players"]:
        entry = {"name": p["name"], "bot": p["bot"]}
        if isinstance(p.get("level"), str):
            entry["level"] = p["level"]
        if p.get("bot_from") is not None:
            entry["bot_from"] = p["bot_from"]
        players.append(entry)
    body = {
        "format": rec["format"],
        "game": rec["game"],
        "params": rec["params"],
        "table": rec["table"],
        "commitment": rec["commitment"],
        "fingerprint": fingerprint(rec["commitment"]),
        "contributions": rec["contributions"],
        "secret": rec.get("secret"),
        "seed": rec.get("seed"),
        "players": players,
        "actions": [
            {"seat": a["seat"], "action": a["action"], "by": a["by"]} for a in rec["actions"]
        ],
        "chain": rec["chain"],
        "outcome": signed_outcome,
    }
    if rec["format"] >= 3:
        body["commitments"] = rec["commitments"]
        body["salts"] = rec["salts"]
    if rec["format"] >= 5:
        body["prelude"] = rec["prelude"]
        if "ended" in rec:
            body["ended"] = rec["ended"]
    return canonical_json(body)


def seat_commitment(contribution: str, salt: str) -> str:
    return sha256_hex(f"{contribution}\n{salt}".encode())


def match_seed(
    secret: str,
    table: str,
    contributions: Sequence[str | None],
    commitments: Sequence[str | None] | None = None,
) -> str:
    """Format 2 without `commitments`; format 3 with them."""
    if commitments is None:
        lines = ["ludoteca/2", table] + [c or "" for c in contributions]
    else:
        lines = ["ludoteca/3", table]
        for c, p in zip(contributions, commitments, strict=True):
            lines.append(c if c is not None else ("?" + p if p is not None else ""))
    message = "\n".join(lines)
    return hmac.new(secret.encode(), message.encode(), hashlib.sha256).hexdigest()


def _dealt(p: dict[str, Any], fmt: int) -> dict[str, Any]:
    """A seat as the chain's header holds it: format 4 has a taken-over seat as the person's."""
    if fmt >= 4 and p.get("bot_from") is not None:
        return {"name": p["name"], "bot": False}
    return {"name": p["name"], "bot": p["bot"]} | (
        {"level": p["level"]} if isinstance(p.get("level"), str) else {}
    )


def chain_heads(rec: dict[str, Any], players_param: int) -> list[str]:
    fmt = rec.get("format", 2)
    header = {
        "game": rec["game"],
        "params": {"players": players_param},
        "table": rec["table"],
        "commitment": rec["commitment"],
        "contributions": rec["contributions"],
        "players": [_dealt(p, fmt) for p in rec["players"]],
    }
    if fmt >= 3:
        header["commitments"] = rec["commitments"]
    domain = b"ludoteca/4 chain\n" if fmt >= 4 else b"ludoteca/2 chain\n"

    def extend(head: str, value: dict[str, Any]) -> str:
        return sha256_hex(head.encode() + b"\n" + canonical_json(value))

    def takeovers(head: str, version: int) -> str:
        if fmt < 4:
            return head
        for seat, p in enumerate(rec["players"]):
            if p.get("bot_from") == version:
                event: dict[str, Any] = {"event": "takeover", "seat": seat}
                if isinstance(p.get("level"), str):
                    event["level"] = p["level"]
                head = extend(head, event)
        return head

    if fmt >= 5:  # from the creation: each prelude event a link, then the deal's header
        head = sha256_hex(b"ludoteca/5 chain\n" + canonical_json(rec["prelude"][0]))
        for event in rec["prelude"][1:]:
            head = extend(head, event)
        heads = [takeovers(extend(head, header), 0)]
    else:
        heads = [takeovers(sha256_hex(domain + canonical_json(header)), 0)]
    for k, a in enumerate(rec["actions"], 1):
        step = {"seat": a["seat"], "action": a["action"], "by": a["by"]}
        heads.append(takeovers(extend(heads[-1], step), k))
    return heads


def seats_problem(rec: dict[str, Any]) -> str | None:
    """Format 4's `seats` check: bots commit to nothing; `by` is what the seat was then."""
    players, steps = rec["players"], rec["actions"]
    for seat, p in enumerate(players):
        since = p.get("bot_from")
        if p["bot"] and since is None and rec["commitments"][seat] is not None:
            return f"seat {seat} is a bot's and has a commitment"
        if since is not None and since > len(steps):
            return f"seat {seat}: bot_from {since} is after the last step"
    for k, a in enumerate(steps, 1):
        p = players[a["seat"]]
        bot = p["bot"] and (p.get("bot_from") is None or k > p["bot_from"])
        if bot != (a["by"] == "bot"):
            return f"step {k}: by {a['by']!r} does not fit seat {a['seat']}"
    return None


def normal_outcome(outcome: dict[str, Any], players: int, fmt: int) -> dict[str, Any]:
    winners = sorted(outcome["winners"])
    draw = outcome.get("draw", False)
    if fmt == 1:
        if not winners and draw:
            winners = list(range(players))
        draw = len(winners) > 1
    return {
        "winners": winners,
        "reason": outcome["reason"],
        "draw": draw,
        "scores": list(outcome.get("scores", [])),
    }


def _outcome_text(outcome: dict[str, Any] | None) -> str:
    if outcome is None:
        return "no outcome"
    shown = dict(outcome)
    if not shown.get("scores"):
        shown.pop("scores", None)
    return json.dumps(shown, sort_keys=True)


def verify(
    rec: object,
    receipts: Sequence[dict[str, Any]] = (),
    keys: Sequence[str] | None = None,
    pure: bool = False,
) -> str:
    """Raise the first Problem; return a short summary when every check passes."""
    rec = parse(rec)
    fmt = rec["format"]
    if fmt >= 2 and rec.get("secret") is None:
        raise Problem("commitment", "the secret is not revealed: the match is not over")
    if fmt >= 2:
        sig = rec.get("signature")
        if sig is None:
            raise Problem("signature", "the record is not signed")
        public = bytes.fromhex(sig["public_key"])
        if hashlib.sha256(public).hexdigest()[:16] != sig["key_id"]:
            raise Problem("signature", f"key id {sig['key_id']} is not the id of the public key")
        if not ed25519_verify(public, signed_bytes(rec), bytes.fromhex(sig["value"]), pure):
            raise Problem("signature", f"the signature by key {sig['key_id']} does not match")
        if keys is not None and sig["public_key"] not in keys:
            raise Problem("signature", f"key {sig['key_id']} is not one of the server's keys")
    elif keys is not None or receipts:
        raise Problem("signature", "a format-1 record is neither signed nor chained")
    if fmt >= 4:
        problem = seats_problem(rec)
        if problem:
            raise Problem("seats", problem)
    seed = rec.get("seed")
    if seed is None:
        raise Problem("commitment", "the seed is not revealed: the match is not over")
    committed = rec["secret"] if fmt >= 2 else seed
    if sha256_hex(committed.encode()) != rec["commitment"]:
        raise Problem("commitment", "commitment does not match")
    fp = rec.get("fingerprint")
    if fp is not None and fp != fingerprint(rec["commitment"], 80 if fmt >= 2 else 40):
        raise Problem("commitment", f"fingerprint {fp} is not the commitment's")
    if fmt >= 3:
        for s, (c, z, p) in enumerate(
            zip(rec["contributions"], rec["salts"], rec["commitments"], strict=True)
        ):
            if c is not None and seat_commitment(c, z) != p:
                raise Problem("reveal", f"the reveal of seat {s} does not match its commitment")
    if fmt >= 2:
        promised = rec["commitments"] if fmt >= 3 else None
        expected = match_seed(rec["secret"], rec["table"], rec["contributions"], promised)
        if expected != seed:
            raise Problem("seed", f"the seed is not HMAC-SHA-256(...) = {expected}")
    game_id = rec["game"]
    if game_id not in GAMES:
        raise Problem("redeal", f"no game '{game_id}'")
    factory, low, high = GAMES[game_id]
    params = rec["params"]
    if set(params) - {"players"}:
        raise Problem("redeal", f"{game_id}: unknown parameter(s)")
    n = params.get("players", low)
    if not _is_int(n):
        raise Problem("redeal", f"{game_id}: players must be a whole number")
    if not low <= n <= high:
        raise Problem("redeal", f"{game_id} is played by {low}-{high} players, not {n}")
    if len(rec["players"]) != n:
        raise Problem("redeal", f"{n} seats but {len(rec['players'])} players given")
    game = factory(n, Stream(seed))
    for k, step in enumerate(rec["actions"], 1):
        text, seat = step["action"], step["seat"]
        if game.outcome is not None:
            raise Problem("actions", f"step {k}: the match is over", k)
        if seat != game.to_move:
            raise Problem("actions", f"step {k}: not seat {seat}'s turn", k)
        if text not in game.legal():
            raise Problem("actions", f"step {k}: seat {seat} {text!r} is not legal", k)
        game.play(text)
    ended = rec.get("ended")
    if fmt >= 2:
        heads = chain_heads(rec, n)
        before_end = heads[-1]
        if ended is not None:  # the end is one more link after the last step
            end = {"event": "end", **ended}
            heads[-1] = sha256_hex(before_end.encode() + b"\n" + canonical_json(end))
        if heads[-1] != rec["chain"]:
            raise Problem("chain", f"the chain head is {heads[-1]}, the record says {rec['chain']}")
    if ended is not None:
        game.outcome = _ended(rec, game.outcome, ended)
    if game.outcome is None:
        raise Problem("outcome", f"the match is not over after all {len(rec['actions'])} actions")
    stated = rec.get("outcome")
    mine = game.outcome
    if stated is None or not _outcomes_equal(normal_outcome(stated, n, fmt), mine):
        raise Problem(
            "outcome",
            f"outcome differs: the record says {_outcome_text(stated)}, "
            f"the replay gives {_outcome_text(mine)}",
        )
    for receipt in receipts:
        if receipt["table"] != rec["table"]:
            raise Problem("receipt", "the receipt is for another table")
        if receipt["version"] > len(rec["actions"]):
            raise Problem("receipt", "the receipt is for a later version")
        last = receipt["version"] == len(rec["actions"]) and ended is not None
        if heads[receipt["version"]] != receipt["chain"] and not (
            last and receipt["chain"] == before_end
        ):
            raise Problem("receipt", "the chain head differs at the receipt's version")
    return f"{game_id} match, {len(rec['actions'])} actions replayed, outcome {_outcome_text(mine)}"


def _ended(
    rec: dict[str, Any], by_rules: dict[str, Any] | None, ended: dict[str, Any]
) -> dict[str, Any]:
    """An ended match: the rules have not ended it; an abort is by a person who made no move
    of their own, its outcome (and the operator's) the no-result one; a resign is by a person at
    a table of exactly 2 players, and the other seat wins."""
    if by_rules is not None:
        raise Problem("outcome", "the match is over by the rules: it was not ended")
    if ended["by"] == "abort":
        seat = ended["seat"]
        if rec["players"][seat]["bot"]:
            raise Problem("outcome", f"seat {seat} is a bot's: only a person may abort")
        if any(a["seat"] == seat and a["by"] == "player" for a in rec["actions"]):
            raise Problem("outcome", f"seat {seat} made a move of its own")
    if ended["by"] == "resign":
        seat = ended["seat"]
        if len(rec["players"]) != 2:
            raise Problem("outcome", "only a 2-player match ends by a resign")
        if rec["players"][seat]["bot"]:
            raise Problem("outcome", f"seat {seat} is a bot's: only a person may resign")
        return make_outcome([1 - seat], REASONS["resign"], [])
    return make_outcome([], REASONS[ended["by"]], [])


def _outcomes_equal(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return (
        a["winners"] == b["winners"]
        and a["reason"] == b["reason"]
        and a["draw"] == b["draw"]
        and len(a["scores"]) == len(b["scores"])
        and all(x == y for x, y in zip(a["scores"], b["scores"], strict=True))
    )


def result(rec: object, **kwargs: Any) -> str:
    """`ok` or `FAILED (<check>)`, with ` step N` for an `actions` problem."""
    try:
        verify(rec, **kwargs)
    except Problem as problem:
        return f"FAILED ({problem.check})" + (f" step {problem.step}" if problem.step else "")
    return "ok"


def load_keys(path: str) -> list[str]:
    with open(path, encoding="utf-8") as f:
        text = f.read()
    try:
        data = json.loads(text)
    except ValueError:
        data = None
    if isinstance(data, dict):
        return [k["public_key"] for k in data["keys"]]
    return [line.strip() for line in text.splitlines() if line.strip()]


def _iter_records(paths: Sequence[str]) -> Iterator[tuple[str, object]]:
    for path in paths:
        with open(path, encoding="utf-8") as f:
            try:
                yield path, json.load(f)
            except ValueError:
                yield path, None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records", nargs="+")
    parser.add_argument("--receipt", action="append", default=[])
    parser.add_argument("--key")
    parser.add_argument("--pure", action="store_true", help="Ed25519 by RFC 8032 arithmetic only")
    args = parser.parse_args(argv)
    receipts: list[dict[str, Any]] = []
    for path in args.receipt:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        receipts += data if isinstance(data, list) else [data]
    keys = load_keys(args.key) if args.key else None
    failed = 0
    for path, rec in _iter_records(args.records):
        try:
            summary = verify(rec, receipts=receipts, keys=keys, pure=args.pure)
        except Problem as problem:
            failed += 1
            step = f" step {problem.step}" if problem.step else ""
            print(f"{path}: FAILED ({problem.check}){step}: {problem.message}")
        else:
            print(f"{path}: ok: {summary}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
