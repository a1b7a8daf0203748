#!/usr/bin/env python3
"""Check a finished ludoteca match's fairness and deal it again, with the standard library only.

    python3 verify_deal.py RECORD.json [--key HEX] [--receipt FILE] [--json]

1. SHA-256 of the revealed secret (format 1: the seed) must equal the commitment shown before the
   match, and its fingerprint the one shown at the table.
2. Formats 2 to 5: the Ed25519 signature must sign the record, by the key the record names, or,
   with --key, by that key; format 4: who played each step must be what the seats say, and a
   bot's seat commits to nothing; formats 3 and 4: each seat's revealed contribution and salt
   must give its commitment; the seed must be HMAC-SHA-256(secret, "ludoteca/N", table, one line
   per seat); the chain is recomputed from the header, every step and (format 4) every takeover
   and must end at the record's head (and pass through every receipt given). Format 5: the
   prelude (every event from the table's creation to the deal) must follow the rules and leave
   the record's seats, commitments and reveals; the chain starts at the creation, runs through
   every event of the prelude, then the header, and a receipt {"prelude": k} is the head after
   the first k events. A match that ended other than by the rules ("ended": aborted by a person
   before their first move, ended by the operator, or resigned by a person in a 2-player match):
   its chain ends with the end's link, an aborting seat is a person's with no step "by":
   "player", a resigning seat a person's at a 2-player table, and the outcome is the no-result
   one, or for a resign the other seat's win (whether the rules had already ended the match
   needs the rules: `ludoteca verify`).
3. The set-up is dealt again from the seed with the stream of docs/fairness.md: compare it with what
   you saw at the table (your opening hand, who started, the set-aside heroes shown at the end).
Replaying every action and comparing the outcome needs the rules: `ludoteca verify RECORD.json`.
This file is independent of the ludoteca package on purpose; its tests compare it with the engine.
"""

from __future__ import annotations

import hashlib
import hmac
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


def fingerprint(commitment: str, bits: int = 80) -> str:
    value = int(commitment[: bits // 4], 16)
    code = "".join(CROCKFORD[(value >> s) & 31] for s in range(bits - 5, -1, -5))
    return "-".join(code[i : i + 4] for i in range(0, len(code), 4))


def canonical(value: object) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def seat_commitment(contribution: str, salt: str) -> str:
    return hashlib.sha256(f"{contribution}\n{salt}".encode()).hexdigest()


def match_seed(record: dict) -> str:
    """Format 2: a seat's line is its contribution or empty. Format 3: its revealed contribution,
    "?" + its commitment when it never revealed, or empty when it committed to nothing."""
    lines = [c or "" for c in record["contributions"]]
    domain = "ludoteca/2"
    if record["format"] >= 3:
        domain = "ludoteca/3"
        lines = [
            c if c is not None else ("?" + p if p is not None else "")
            for c, p in zip(record["contributions"], record["commitments"], strict=True)
        ]
    message = "\n".join([domain, record["table"], *lines])
    return hmac.new(record["secret"].encode(), message.encode(), hashlib.sha256).hexdigest()


def chain(record: dict) -> list:
    """The chain's head after each version: header, then one link per step. Format 4: the
    header has the seats as dealt (a seat taken over later is the person's), and each takeover
    is one more link after the step it follows (after the header for bot_from 0)."""
    header = {k: record[k] for k in ("game", "params", "table", "commitment", "contributions")}
    header["players"] = record["players"]
    if record["format"] >= 3:
        header["commitments"] = record["commitments"]
    domain = b"ludoteca/2 chain\n"
    if record["format"] >= 4:
        domain = b"ludoteca/4 chain\n"
        header["players"] = [
            p if p.get("bot_from") is None else {"name": p["name"], "bot": False}
            for p in record["players"]
        ]

    def link(head: str, value: dict) -> str:
        return hashlib.sha256(head.encode() + b"\n" + canonical(value)).hexdigest()

    def takeovers(head: str, version: int) -> str:
        for seat, p in enumerate(record["players"]):
            if record["format"] >= 4 and p.get("bot_from") == version:
                event = {"event": "takeover", "seat": seat}
                if p.get("level") is not None:
                    event["level"] = p["level"]
                head = link(head, event)
        return head

    if record["format"] >= 5:
        first = prelude_heads(record["prelude"])[-1]
        heads = [takeovers(link(first, header), 0)]
    else:
        heads = [takeovers(hashlib.sha256(domain + canonical(header)).hexdigest(), 0)]
    for n, step in enumerate(record["actions"], 1):
        step_link = {"seat": step["seat"], "action": step["action"], "by": step["by"]}
        heads.append(takeovers(link(heads[-1], step_link), n))
    return heads


def prelude_heads(events: list) -> list:
    """Format 5: the head after each event from the table's creation."""
    heads = [hashlib.sha256(b"ludoteca/5 chain\n" + canonical(events[0])).hexdigest()]
    for event in events[1:]:
        heads.append(hashlib.sha256(heads[-1].encode() + b"\n" + canonical(event)).hexdigest())
    return heads


FIELDS = {
    "create": {"event", "game", "params", "table", "commitment"},
    "sit": {"event", "seat", "name", "bot", "level"},
    "leave": {"event", "seat"},
    "commit": {"event", "seat", "commitment"},
    "close": {"event"},
    "reveal": {"event", "seat", "contribution", "salt"},
    "withheld": {"event", "seat"},
}


def prelude_problem(record: dict) -> str | None:
    """Format 5: replay the prelude. The first event, and only it, is the creation, naming the
    record's game, params, table and commitment; a seat is taken only when free, freed only when
    a person's, committed only by its person, and all three only before the close (once); a
    reveal opens its seat's commitment; a seat withholds only what it committed and did not
    reveal. At the end every seat is held, as the record's seats as dealt, with its commitments,
    contributions and salts."""
    events, players = record.get("prelude"), record["players"]
    if not isinstance(events, list) or not events or not all(isinstance(e, dict) for e in events):
        return "the prelude is not a non-empty list of events"
    want = {"event": "create"} | {k: record[k] for k in ("game", "params", "table", "commitment")}
    seats = [None] * len(players)  # [name, bot, level, commitment, contribution, salt, withheld]
    closed = False
    for n, e in enumerate(events, 1):
        kind = e.get("event")
        if kind not in FIELDS or set(e) - FIELDS[kind] or (kind == "create") != (n == 1):
            return f"event {n} is not an event of the prelude, in its place"
        if kind == "create":
            if e != want:
                return "the prelude's creation is not the record's table"
            continue
        if kind == "close":
            if closed:
                return f"event {n}: the commitments close once"
            closed = True
            continue
        seat = e.get("seat")
        if type(seat) is not int or not 0 <= seat < len(players):
            return f"event {n}: no such seat"
        s = seats[seat]
        if kind in ("sit", "leave", "commit") and closed:
            return f"event {n}: a {kind} after the commitments closed"
        if kind == "sit":
            if (
                s is not None
                or not isinstance(e.get("name"), str)
                or type(e.get("bot")) is not bool
            ):
                return f"event {n}: seat {seat} is taken, or the sit is malformed"
            seats[seat] = [e["name"], e["bot"], e.get("level"), None, None, None, False]
        elif kind in {"leave", "commit"}:
            if s is None or s[1]:
                return f"event {n}: seat {seat} holds no person"
            if kind == "leave":
                seats[seat] = None
            elif not isinstance(e.get("commitment"), str) or len(e["commitment"]) != 64:
                return f"event {n}: a commitment is 64 hex digits"
            else:
                s[3] = e["commitment"]
        elif s is None or s[3] is None or s[4] is not None or s[6] or not closed:
            return f"event {n}: seat {seat} has no open commitment"
        elif kind == "withheld":
            s[6] = True
        elif seat_commitment(str(e.get("contribution")), str(e.get("salt"))) != s[3]:
            return f"event {n}: the reveal of seat {seat} does not open its commitment"
        else:
            s[4], s[5] = e["contribution"], e["salt"]
    if not closed:
        return "the commitments never closed before the deal"
    for seat, (s, p) in enumerate(zip(seats, players, strict=True)):
        dealt = (p["name"], False, None) if p.get("bot_from") is not None else None
        dealt = dealt or (p["name"], p["bot"], p.get("level"))
        if s is None or (s[0], s[1], s[2]) != dealt:
            return f"seat {seat}: the prelude does not seat the record's player"
        if s[3] is not None and s[4] is None and not s[6]:
            return f"seat {seat} neither revealed nor was marked withheld"
        given = (record["commitments"][seat], record["contributions"][seat], record["salts"][seat])
        if (s[3], s[4], s[5]) != given:
            return f"seat {seat}: the prelude's commitment or reveal is not the record's"
    return None


def seats_problem(record: dict) -> str | None:
    """Format 4: a bot's seat (bot, no bot_from) commits to nothing and plays every step "by"
    "bot"; a person's steps are "player" or "table"; a seat taken over after step bot_from (at
    most the number of steps) is the person's up to it and the bot's after it."""
    players, steps = record["players"], record["actions"]
    for seat, (p, promised) in enumerate(zip(players, record["commitments"], strict=True)):
        if p["bot"] and p.get("bot_from") is None and promised is not None:
            return f"seat {seat} is a bot's, and a bot commits to nothing"
        if p.get("bot_from") is not None and p["bot_from"] > len(steps):
            return f"seat {seat} was taken over after step {p['bot_from']}, past the last step"
    for n, step in enumerate(steps, 1):
        p = players[step["seat"]]
        bot = p["bot"] and (p.get("bot_from") is None or n > p["bot_from"])
        if bot != (step["by"] == "bot"):
            return f"step {n}: 'by' is {step['by']!r}, but seat {step['seat']} is not so then"
    return None


# ------------------------------------------------------- Ed25519 verification (RFC 8032, 5.1.7)
P = 2**255 - 19
L = 2**252 + 27742317777372353535851937790883648493
D = -121665 * pow(121666, P - 2, P) % P
SQRT_M1 = pow(2, (P - 1) // 4, P)


def _add(a: tuple, b: tuple) -> tuple:
    x1, y1, z1, t1 = a
    x2, y2, z2, t2 = b
    e, f = (y1 - x1) * (y2 - x2) % P, (y1 + x1) * (y2 + x2) % P
    g, h = 2 * t1 * t2 * D % P, 2 * z1 * z2 % P
    e, f, g, h = f - e, h - g, h + g, f + e
    return e * f % P, g * h % P, f * g % P, e * h % P


def _times(point: tuple, n: int) -> tuple:
    result = (0, 1, 1, 0)
    while n:
        if n & 1:
            result = _add(result, point)
        point, n = _add(point, point), n >> 1
    return result


def _decode(raw: bytes) -> tuple | None:
    y = int.from_bytes(raw, "little")
    sign, y = y >> 255, y & ((1 << 255) - 1)
    if y >= P:
        return None
    x2 = (y * y - 1) * pow(D * y * y + 1, P - 2, P) % P
    x = pow(x2, (P + 3) // 8, P)
    if (x * x - x2) % P:
        x = x * SQRT_M1 % P
    if (x * x - x2) % P or (x == 0 and sign):
        return None
    if x & 1 != sign:
        x = P - x
    return x, y, 1, x * y % P


def _same(a: tuple, b: tuple) -> bool:
    return (a[0] * b[2] - b[0] * a[2]) % P == 0 and (a[1] * b[2] - b[1] * a[2]) % P == 0


BASE = _decode((4 * pow(5, P - 2, P) % P).to_bytes(32, "little"))


def ed25519_verify(public: bytes, message: bytes, signature: bytes) -> bool:
    a = _decode(public)
    r = _decode(signature[:32]) if len(signature) == 64 else None
    s = int.from_bytes(signature[32:], "little")
    if a is None or r is None or s >= L:
        return False
    k = int.from_bytes(hashlib.sha512(signature[:32] + public + message).digest(), "little") % L
    return _same(_times(BASE, s), _add(r, _times(a, k)))


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


# ------------------------------------------------------------------------------ Liar's Dice
def deal_liars_dice(rng: Stream, players: int, dice: int = 5) -> dict:
    """The first round: its starter (one draw among the seats), then each cup in seat order,
    die by die (docs/notation/liars-dice.md)."""
    starter = rng.below(players)
    return {
        "to_move": starter,
        "hands": [[rng.below(6) + 1 for _ in range(dice)] for _ in range(players)],
    }


DEALS = {
    "heroes": deal_heroes,
    "dice-heroes": deal_dice_heroes,
    "dwarves": deal_dwarves,
    "liars-dice": deal_liars_dice,
}
OPTIONS = {"liars-dice": ("dice",)}
"""The table options (record's ``params`` beside ``players``) a game's deal depends on."""


def deal(game: str, players: int, seed: str, params: dict | None = None) -> dict:
    options = {k: v for k, v in (params or {}).items() if k in OPTIONS.get(game, ())}
    return DEALS[game](Stream(seed), players, **options)


REASONS = {"abort": "aborted", "operator": "operator", "resign": "resigned"}


def ending_problem(record: dict) -> str | None:
    """A match that ended other than by the rules (format 5, "ended"): well formed; an abort by
    a person's seat that made no move of its own, a resign by a person's seat at a 2-player
    table; the outcome has no result, or for a resign the other seat wins."""
    ended, players = record["ended"], record["players"]
    seat = ended.get("seat") if isinstance(ended, dict) else None
    shape = isinstance(ended, dict) and (
        (ended.get("by") == "operator" and set(ended) == {"by"})
        or (
            ended.get("by") in ("abort", "resign")
            and set(ended) == {"by", "seat"}
            and type(seat) is int
            and 0 <= seat < len(players)
        )
    )
    if record["format"] < 5 or not shape:
        return (
            'field "ended" must be {"by": "abort", "seat": S}, {"by": "resign", "seat": S} '
            'or {"by": "operator"}'
        )
    if ended["by"] == "abort":
        if players[seat]["bot"]:
            return f"seat {seat} is a bot's: only a person may abort"
        for n, step in enumerate(record["actions"], 1):
            if step["seat"] == seat and step["by"] == "player":
                return f"seat {seat} made a move of its own (step {n}), so it could not abort"
    winners = []
    if ended["by"] == "resign":
        if len(players) != 2:
            return f"a match of {len(players)} players is not ended by a resign"
        if players[seat]["bot"]:
            return f"seat {seat} is a bot's: only a person may resign"
        winners = [1 - seat]
    wanted = {"winners": winners, "reason": REASONS[ended["by"]], "draw": False}
    if record.get("outcome") != wanted:
        return f"the outcome of an ended match is {json.dumps(wanted)}"
    return None


def check_signed(record: dict, key: str | None, receipts: list) -> str | None:
    """The format-2 to format-5 checks that need no rules; a problem, or None."""
    signature = record.get("signature")
    if signature is None:
        return "the record is not signed"
    public = signature["public_key"]
    if key is not None and public != key.lower():
        return f"signed by key {signature['key_id']}, not by the key given"
    if hashlib.sha256(bytes.fromhex(public)).hexdigest()[:16] != signature["key_id"]:
        return "the signature's key id is not that of its public key"
    body = {k: v for k, v in record.items() if k != "signature"}
    if not ed25519_verify(
        bytes.fromhex(public), canonical(body), bytes.fromhex(signature["value"])
    ):
        return f"the signature by key {signature['key_id']} does not match the record"
    if record["format"] >= 4:
        problem = seats_problem(record)
        if problem:
            return problem
    if record["format"] >= 5:
        problem = prelude_problem(record)
        if problem:
            return problem
    if record["format"] >= 3:
        for seat, (promised, given, salt) in enumerate(
            zip(record["commitments"], record["contributions"], record["salts"], strict=True)
        ):
            if given is not None and seat_commitment(given, salt) != promised:
                return f"the reveal of seat {seat} does not match its commitment {promised}"
    seed = match_seed(record)
    if record["seed"] != seed:
        return f"the seed is not HMAC-SHA-256(secret, table, contributions) = {seed}"
    heads = chain(record)
    unended = heads[-1]
    if "ended" in record:
        problem = ending_problem(record)
        if problem:
            return problem
        end = {"event": "end", **record["ended"]}
        heads[-1] = hashlib.sha256(unended.encode() + b"\n" + canonical(end)).hexdigest()
    if heads[-1] != record["chain"]:
        return f"the chain ends at {heads[-1]}, the record says {record['chain']}"
    before = prelude_heads(record["prelude"]) if record["format"] >= 5 else []
    for receipt in receipts:
        if "prelude" in receipt:
            k = receipt["prelude"]
            if receipt["table"] != record["table"] or not 1 <= k <= len(before):
                return f"receipt for event {k} before the deal of {receipt['table']} does not fit"
            if before[k - 1] != receipt["chain"]:
                return f"after event {k} you were shown {receipt['chain']}, not {before[k - 1]}"
            continue
        version = receipt["version"]
        if receipt["table"] != record["table"] or version >= len(heads):
            return f"receipt for version {version} of table {receipt['table']} does not fit"
        last = version == len(heads) - 1 and "ended" in record and receipt["chain"] == unended
        if heads[version] != receipt["chain"] and not last:  # shown before the end's link
            return f"at version {version} you were shown {receipt['chain']}, not {heads[version]}"
    return None


def main(argv: list) -> int:
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 2
    with open(argv[0], encoding="utf-8") as file:
        record = json.load(file)
    options = dict(zip(argv[1::2], argv[2::2], strict=False))
    receipts = []
    if "--receipt" in options:
        with open(options["--receipt"], encoding="utf-8") as file:
            loaded = json.load(file)
        receipts = loaded if isinstance(loaded, list) else [loaded]
    form = record.get("format")
    signed = form in (2, 3, 4, 5)
    secret = record.get("secret") if signed else record.get("seed")
    promised = record["commitment"]
    if secret is None:
        print("FAILED: the secret is not revealed yet (the match is not over)")
        return 1
    actual = hashlib.sha256(secret.encode()).hexdigest()
    if actual != promised:
        print(f"FAILED: sha256(secret) = {actual}, but the commitment was {promised}")
        return 1
    bits = 80 if signed else 40
    shown = record.get("fingerprint")
    if shown is not None and shown != fingerprint(promised, bits):
        print(f"FAILED: fingerprint {shown} is not that of the commitment")
        return 1
    if signed:
        problem = check_signed(record, options.get("--key"), receipts)
        if problem:
            print(f"FAILED: {problem}")
            return 1
    known = record["game"] in DEALS
    params = record["params"]
    dealt = deal(record["game"], params["players"], record["seed"], params) if known else None
    if "--json" in argv:
        print(json.dumps(dealt))
        return 0
    print(f"OK: sha256(secret) is the commitment; fingerprint {fingerprint(promised, bits)}")
    if signed:
        key = record["signature"]["key_id"]
        if form >= 5:
            print("OK: the prelude, from the table's creation, leaves these seats and reveals")
        if form >= 4:
            print("OK: who played each step is what the seats say; bots committed to nothing")
        if form >= 3:
            print("OK: every revealed contribution and salt give the seat's commitment")
        print(f"OK: the seed mixes every contribution; the chain and the signature ({key}) hold")
        if "ended" in record:
            how = record["ended"]
            if how["by"] == "resign":
                won = 2 - how["seat"]
                print(f"OK: seat {how['seat'] + 1} resigned the match: seat {won} wins")
            else:
                by = (
                    f"aborted by seat {how['seat'] + 1}" if how["by"] == "abort" else "the operator"
                )
                print(f"OK: the match ended other than by the rules ({by}), with no result")
    if dealt is None:
        print(f"This script does not deal {record['game']!r} matches: ludoteca verify replays it")
        return 0
    print(f"The deal of this {record['game']} match, from the seed:")
    for key, value in dealt.items():
        print(f"  {key}: {json.dumps(value)}")
    print(f"To replay its {len(record['actions'])} actions and check the outcome: ludoteca verify")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
