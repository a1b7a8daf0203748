#!/usr/bin/env python3
"""Check a finished ludoteca match's seed and deal it again, with the standard library only.

    python3 verify_deal.py RECORD.json [--json]

1. SHA-256 of the revealed seed must equal the commitment shown before the match (and its
   fingerprint the one shown at the table).
2. The set-up is dealt again from the seed with the stream of docs/fairness.md: compare it with what
   you saw at the table (your opening hand, who started, the set-aside heroes shown at the end).
Replaying every action and comparing the outcome needs the rules: `ludoteca verify RECORD.json`.
This file is independent of the ludoteca package on purpose; its tests compare it with the engine.
"""

from __future__ import annotations

import hashlib
import json
import sys

CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


class Stream:
    """SHA-256 in counter mode: word k = bytes 4(k mod 8).. of SHA-256(seed ":" (k div 8))."""

    def __init__(self, seed: str) -> None:
        self.seed, self.used = seed, 0

    def word(self) -> int:
        block = hashlib.sha256(f"{self.seed}:{self.used // 8}".encode()).digest()
        offset = 4 * (self.used % 8)
        self.used += 1
        return int.from_bytes(block[offset : offset + 4], "big")

    def below(self, n: int) -> int:
        limit = 2**32 - 2**32 % n
        while (w := self.word()) >= limit:
            pass
        return w % n

    def shuffle(self, items: list) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


def fingerprint(commitment: str) -> str:
    bits = int(commitment[:10], 16)
    code = "".join(CROCKFORD[(bits >> s) & 31] for s in range(35, -1, -5))
    return code[:4] + "-" + code[4:]


# --------------------------------------------------------------------------- Heroes & Relics
ROLES = ["halfling", "bard", "ranger", "fighter", "rogue", "wizard", "cleric", "paladin"]


def deal_heroes(rng: Stream, players: int) -> dict:
    groups = {}
    for seat in ("gold", "blue"):
        group = [role for role in ROLES for _ in range(3)]
        rng.shuffle(group)
        groups[seat] = group
    first = ("gold", "blue")[rng.below(2)]
    return {
        "to_move": first,
        "set_aside": {s: g[:4] for s, g in groups.items()},
        "hands": {s: g[4:8] for s, g in groups.items()},
        "reserves": {s: g[8:] for s, g in groups.items()},
    }


# ------------------------------------------------------------------------------ Dice Heroes
WHITE = ["sword1", "sword2", "sword3", "coin", "coin", "yellow-die"]
SWORDS = {"sword1": 1, "sword2": 2, "sword3": 3}


def deal_dice_heroes(rng: Stream, players: int) -> dict:
    contenders, rounds = list(range(players)), []
    while True:
        rolls = {s: [WHITE[rng.below(6)] for _ in range(3)] for s in contenders}
        rounds.append(rolls)
        swords = {s: sum(SWORDS.get(f, 0) for f in faces) for s, faces in rolls.items()}
        contenders = [s for s in contenders if swords[s] == max(swords.values())]
        if len(contenders) == 1:
            break
    holder = contenders[0]
    first = (holder + 1) % players
    return {
        "rolloff": [{str(s): faces for s, faces in r.items()} for r in rounds],
        "holder": holder,
        "laid": [f for f in rounds[-1][holder] if f in SWORDS],
        "to_move": first,
        "dice": [WHITE[rng.below(6)] for _ in range(3)],  # the first player's first roll
    }


# -------------------------------------------------------------------------------- Dwarves
FACES = ["yellow", "red", "blue", "green", "orange", "purple"]
COLOURS = ["red", "yellow", "green", "blue", "orange", "purple"]
KINDS = ["gold", "ruby", "sapphire", "emerald", "garnet"]
TURN_ORDER = {2: [(0, 0), (2, None), (1, 1), (3, None)], 3: [(0, 0), (3, None), (1, 1), (2, 2)]}


def grey(tile: str) -> bool:
    return tile in ("portal", "passage")


def same(a: str, b: str) -> bool:
    return a == b or (grey(a) and grey(b))


def settle(ring: list) -> bool:
    for _ in range(12):
        changed = False
        for i in range(len(ring)):
            j, k = (i + 1) % len(ring), (i + 2) % len(ring)
            if same(ring[i], ring[j]):
                ring[j], ring[k], changed = ring[k], ring[j], True
        if not changed:
            return True
    return not any(same(ring[i], ring[(i + 1) % len(ring)]) for i in range(len(ring)))


def deal_dwarves(rng: Stream, players: int) -> dict:
    big = players >= 5
    tiles = FACES[:4] * 2 + ["portal", "passage", "orange", "purple"] + ["orange", "purple"] * big
    ring = sorted(tiles)
    rng.shuffle(ring)
    while not settle(ring):
        rng.shuffle(ring)
    pool = [k for k in KINDS for _ in range(5 + big)] + ["diamond"]
    rng.shuffle(pool)
    order = TURN_ORDER.get(players) or [(s, s) for s in range(players)]
    portal, passage, size = ring.index("portal"), ring.index("passage"), len(ring)
    dwarves = []
    for colour, seat in order:
        clockwise = [(portal + d) % size for d in range(1, size)]
        tile = next(t for t in clockwise if ring[t] == COLOURS[colour])
        chest = sorted((pool.pop() for _ in range(3)), key=[*KINDS, "diamond"].index)
        dwarves.append({"colour": COLOURS[colour], "seat": seat, "tile": tile, "chest": chest})
    start = next(
        w["colour"]
        for d in range(1, size)
        for w in dwarves
        if w["tile"] == (passage + d) % size and w["seat"] is not None
    )
    dice = {"grey": FACES[rng.below(6)], "white": FACES[rng.below(6)]}
    return {"ring": ring, "dwarves": dwarves, "hobbit": passage, "dragon": portal, "pool": pool,
            "start": start, "dice": dice}  # fmt: skip


DEALS = {"heroes": deal_heroes, "dice-heroes": deal_dice_heroes, "dwarves": deal_dwarves}


def deal(game: str, players: int, seed: str) -> dict:
    return DEALS[game](Stream(seed), players)


def main(argv: list) -> int:
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 2
    with open(argv[0], encoding="utf-8") as file:
        record = json.load(file)
    seed, promised = record.get("seed"), record["commitment"].lower()
    if seed is None:
        print("FAILED: the seed is not revealed yet (the match is not over)")
        return 1
    actual = hashlib.sha256(seed.encode()).hexdigest()
    if actual != promised:
        print(f"FAILED: sha256(seed) = {actual}, but the commitment was {promised}")
        return 1
    shown = record.get("fingerprint")
    if shown is not None and shown != fingerprint(promised):
        print(
            f"FAILED: fingerprint {shown} is not that of the commitment ({fingerprint(promised)})"
        )
        return 1
    if record["game"] not in DEALS:
        print(f"FAILED: this script does not know the game {record['game']!r}")
        return 1
    dealt = deal(record["game"], record["params"]["players"], seed)
    if "--json" in argv:
        print(json.dumps(dealt))
        return 0
    print(f"OK: sha256(seed) is the commitment; fingerprint {fingerprint(promised)}")
    print(f"The deal of this {record['game']} match, from the seed:")
    for key, value in dealt.items():
        print(f"  {key}: {json.dumps(value)}")
    print(f"To replay its {len(record['actions'])} actions and check the outcome: ludoteca verify")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
