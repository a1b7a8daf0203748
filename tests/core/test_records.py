"""Record format 3: players' committed and revealed seeds in the deal, the chain of steps,
signatures, strictness; and format-1 and format-2 records made before it still verify."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from ludoteca.bots.arena import play_match
from ludoteca.core import (
    Deal,
    Match,
    MatchRecord,
    Player,
    Receipt,
    RecordError,
    SigningKey,
    Step,
    match_seed,
    verify,
)
from ludoteca.core.fairness import (
    chain_next,
    chain_start,
    commitment,
    contribution_problem,
    fingerprint,
    seat_commitment,
    seed_message,
)
from ludoteca.games import get

FORMAT_1 = sorted((Path(__file__).parent / "format1").glob("*.json"))
FORMAT_2 = sorted((Path(__file__).parent / "format2").glob("*.json"))
KEY = SigningKey.generate()


def finished(game_id: str = "dice-heroes", players: int = 2, label: str = "s") -> MatchRecord:
    """A finished match between random bots, its secret made from ``label``; its seats commit
    as people would (with the label ``s``, seat 0 reveals and seat 1 never does)."""
    secret = commitment(label)  # any 64 hex digits
    bots = ["random"] * players
    return play_match(get(game_id), players, secret, bots, table="t1", commit=True).record()


def test_the_fingerprint_is_80_bits_grouped_for_reading_aloud() -> None:
    assert fingerprint("f" * 20 + "0" * 44) == "ZZZZ-ZZZZ-ZZZZ-ZZZZ"
    assert fingerprint("0842108421" * 2 + "0" * 44) == "1111-1111-1111-1111"
    assert fingerprint("ffffffffff" + "0" * 54, 40) == "ZZZZ-ZZZZ"  # format 1


def test_the_match_seed_changes_with_any_one_contribution() -> None:
    base = ["alice-seed", None, "carol-seed"]
    seed = match_seed("secret", "table", base)
    assert seed == match_seed("secret", "table", list(base))
    for seat in range(3):
        for change in ("x", None if base[seat] else "y"):
            changed = list(base)
            if changed[seat] == change:
                continue
            changed[seat] = change
            assert match_seed("secret", "table", changed) != seed, (seat, change)
    assert match_seed("other", "table", base) != seed
    assert match_seed("secret", "table2", base) != seed
    # one line per seat: moving a contribution to another seat is another deal
    assert match_seed("s", "t", ["a", None]) != match_seed("s", "t", [None, "a"])


def test_a_seat_that_never_reveals_enters_the_seed_by_its_commitment() -> None:
    promised = seat_commitment("ana", "0" * 32)
    assert seed_message("t", ["ana", None, None], [promised, "c" * 64, None]) == (
        f"ludoteca/3\nt\nana\n?{'c' * 64}\n"
    )
    # revealing or not, committing or not: three different deals
    seeds = {
        match_seed("s", "t", ["ana", None], [promised, None]),
        match_seed("s", "t", [None, None], [promised, None]),
        match_seed("s", "t", [None, None], [None, None]),
        match_seed("s", "t", ["ana", None]),  # format 2
    }
    assert len(seeds) == 4


def resign(data: dict[str, Any]) -> dict[str, Any]:
    """A changed record signed again, as only the key's holder could."""
    return MatchRecord.from_json(data).sign(KEY).to_json()


def test_a_reveal_that_does_not_match_its_commitment_is_refused() -> None:
    record = finished().sign(KEY).to_json()
    assert record["format"] == 4 and record["contributions"][0] and record["salts"][0]
    assert record["commitments"][1] and record["contributions"][1] is None  # seat 1 withheld
    assert verify(record, get).ok
    for field, value in (("contributions", "another"), ("salts", "f" * 32)):
        changed = json.loads(json.dumps(record))
        changed[field][0] = value
        (problem,) = verify(resign(changed), get).problems
        assert problem.check == "reveal", field
        assert problem.message.startswith("the reveal of seat 0 does not match its commitment")


def test_a_seed_that_does_not_follow_from_the_reveals_is_refused() -> None:
    record = finished().sign(KEY).to_json()
    salt = "a" * 32
    cases = {
        # another reveal, with a commitment to match: the seed no longer follows
        "other reveal": lambda r: (
            r["contributions"].__setitem__(0, "forged"),
            r["salts"].__setitem__(0, salt),
            r["commitments"].__setitem__(0, seat_commitment("forged", salt)),
        ),
        # the withheld seat said to have committed to nothing
        "withheld dropped": lambda r: r["commitments"].__setitem__(1, None),
        # the revealed seat said to have withheld
        "reveal dropped": lambda r: (
            r["contributions"].__setitem__(0, None),
            r["salts"].__setitem__(0, None),
        ),
    }
    for label, edit in cases.items():
        changed = json.loads(json.dumps(record))
        edit(changed)
        (problem,) = verify(resign(changed), get).problems
        assert problem.check == "seed", label
        assert "table and reveals" in problem.message


def test_format_3_seat_seeds_are_strict() -> None:
    record = finished().sign(KEY).to_json()
    bad = {
        "salt without its contribution": {"salts": [record["salts"][0], "b" * 32]},
        "a reveal without a commitment": {"commitments": [None, record["commitments"][1]]},
        "upper-case salt": {"salts": [record["salts"][0].upper(), None]},
        "short salt": {"salts": ["ab", None]},
        "commitments of the wrong length": {"commitments": record["commitments"][:1]},
        "no salts": {"salts": None},
        "bad commitment": {"commitments": [record["commitments"][0], "x"]},
    }
    for label, change in bad.items():
        problems = verify({**record, **change}, get).problems
        assert [p.check for p in problems] == ["record"], label
    missing = {k: v for k, v in record.items() if k != "commitments"}
    (problem,) = verify(missing, get).problems
    assert problem.message == "field 'commitments' must be a list with one entry per seat"


def test_contributions_are_short_printable_texts() -> None:
    assert contribution_problem("0f" * 16) is None
    assert contribution_problem("~!x") is None
    for bad in ("", "a b", "x" * 65, "line\nbreak", "é", 5):
        assert contribution_problem(bad) is not None, bad


def test_the_chain_binds_every_step_in_order() -> None:
    record = finished()
    match = Match.replay(
        get("dice-heroes"),
        record.params,
        record.deal(),
        record.players,
        record.actions,
    )
    head = chain_start(match.header(), "ludoteca/4 chain")  # format 4's domain
    assert match.chain[0] == head
    for version, step in enumerate(record.actions, 1):
        head = chain_next(head, step.to_json())
        assert match.chain[version] == head
    assert record.chain == head


def test_a_signed_record_verifies_and_names_its_key() -> None:
    record = finished().sign(KEY)
    verdict = verify(record.to_json(), get, trusted_keys={KEY.public_key})
    assert verdict.ok, verdict.problems
    assert verdict.key_id == KEY.key_id and verdict.notes == ()


def every_change(record: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """One changed copy of the record per field a forger might touch."""
    found = []

    def changed(label: str, edit: Any) -> None:
        copy = json.loads(json.dumps(record))
        edit(copy)
        found.append((label, copy))

    changed("name", lambda r: r["players"][0].update(name="Mallory"))
    changed("bot", lambda r: r["players"][1].update(bot=not r["players"][1]["bot"]))
    changed("by", lambda r: r["actions"][0].update(by="table"))
    changed("outcome", lambda r: r["outcome"].update(winners=[1 - r["outcome"]["winners"][0]]))
    changed("contribution", lambda r: r["contributions"].__setitem__(0, "mine"))
    changed("params", lambda r: r["params"].update(players=3))
    return found


def test_any_field_changed_without_the_key_fails_by_signature() -> None:
    record = finished().sign(KEY).to_json()
    for label, copy in every_change(record):
        (problem,) = verify(copy, get).problems
        assert problem.check == "signature", label


def test_an_action_replaced_by_another_legal_one_fails_by_signature_and_by_receipt() -> None:
    record = finished(label="swap")
    match = Match(
        get("dice-heroes"),
        record.params,
        record.deal(),
        record.players,
    )
    receipts = []
    for n, step in enumerate(record.actions):
        alternatives = [t for t in match.legal(step.seat) if t != step.action]
        if alternatives and n > 3:
            break
        match.act(step.seat, step.action, step.by)
        receipts.append(Receipt("t1", match.version, match.chain[-1]))
    forged = Match(
        get("dice-heroes"),
        record.params,
        record.deal(),
        record.players,
    )
    forged.replay_steps(record.actions[:n])
    forged.act(record.actions[n].seat, alternatives[0], record.actions[n].by)
    pick = random.Random(1)
    while (seat := forged.to_move) is not None:
        forged.act(
            seat, pick.choice(forged.legal(seat)), "bot" if record.players[seat].bot else "player"
        )
    tampered = forged.record()
    tampered.signature = record.sign(KEY).signature  # the genuine signature, moved over
    (problem,) = verify(tampered.to_json(), get).problems
    assert problem.check == "signature"
    # signed by a forger's own key it is consistent, but not the server's key nor what was shown
    forged_record = forged.record().sign(SigningKey.generate()).to_json()
    assert verify(forged_record, get).ok
    trusted = verify(forged_record, get, trusted_keys={KEY.public_key})
    assert [p.check for p in trusted.problems] == ["signature"]
    shown = Receipt("t1", n + 1, _head_after(record, n + 1))
    assert forged.chain[n + 1] != shown.chain
    (problem,) = verify(forged_record, get, receipts=[shown]).problems
    assert (problem.check, problem.step) == ("receipt", n + 1)
    assert verify(record.sign(KEY).to_json(), get, receipts=[*receipts, shown]).ok


def _head_after(record: MatchRecord, version: int) -> str:
    match = Match(
        get(record.game),
        record.params,
        record.deal(),
        record.players,
    )
    match.replay_steps(record.actions[:version])
    return match.chain[-1]


def test_alternative_histories_from_the_revealed_secret_are_rejected() -> None:
    """Anyone can build a legal history from the revealed secret; without the server's key it
    fails the signature, and under another key it fails the trusted-key check."""
    record = finished(label="alt").sign(KEY)
    for k in range(5):
        other = Match(
            get("dice-heroes"),
            record.params,
            record.deal(),
            record.players,
        )
        pick = random.Random(k)
        while (seat := other.to_move) is not None:
            other.act(seat, pick.choice(other.legal(seat)), "bot")
        history = other.record()
        history.signature = record.signature
        assert [p.check for p in verify(history.to_json(), get).problems] == ["signature"]
        mine = history.sign(SigningKey.generate()).to_json()
        problems = verify(mine, get, trusted_keys={KEY.public_key}).problems
        assert [p.check for p in problems] == ["signature"]


def test_records_are_strict() -> None:
    record = finished().sign(KEY).to_json()
    cases = {
        "upper-case commitment": {**record, "commitment": record["commitment"].upper()},
        "unknown field": {**record, "extra": 1},
        "bot as a number": {**record, "players": [{**record["players"][0], "bot": 1}]},
        "seat out of range": {**record, "actions": [{"seat": 7, "action": "x", "by": "bot"}]},
        "missing by": {**record, "actions": [{"seat": 0, "action": "x"}]},
        "short contributions": {**record, "contributions": [None]},
        "format true": {**record, "format": True},
        "format 2.0": {**record, "format": 2.0},
        "extra player field": {**record, "players": [{**p, "x": 1} for p in record["players"]]},
        "extra step field": {**record, "actions": [{**record["actions"][0], "x": 1}]},
        "extra outcome field": {**record, "outcome": {**record["outcome"], "x": 1}},
    }
    for label, data in cases.items():
        with pytest.raises(RecordError):
            MatchRecord.from_json(data)
        assert [p.check for p in verify(data, get).problems] == ["record"], label


def test_non_canonical_action_text_is_refused() -> None:
    record = finished("heroes")
    steps = list(record.actions)
    n = next(i for i, s in enumerate(steps) if s.action.startswith("place"))
    steps[n] = Step(steps[n].seat, "  " + steps[n].action.upper() + " ", steps[n].by)
    record.actions = steps
    (problem,) = verify(record.sign(KEY).to_json(), get).problems
    assert problem.check == "actions" and problem.step == n + 1


def test_shared_results_have_one_shape_in_every_game() -> None:
    """Everyone level: every level seat in winners, draw true; a sole winner: draw false."""
    for game_id, players in (("heroes", 2), ("dice-heroes", 2), ("dwarves", 2)):
        for k in range(40):
            outcome = finished(game_id, players, f"shape-{k}").outcome
            assert outcome is not None
            assert outcome.draw == (len(outcome.winners) > 1), (game_id, outcome)
            assert list(outcome.winners) == sorted(outcome.winners)


@pytest.mark.parametrize("path", FORMAT_1, ids=lambda p: p.stem)
def test_format_1_records_still_verify_and_say_what_they_cannot_prove(path: Path) -> None:
    data = json.loads(path.read_text())
    assert data["format"] == 1
    verdict = verify(data, get)
    assert verdict.ok, verdict.problems
    assert verdict.notes and "format 1" in verdict.notes[0]
    assert verdict.key_id is None
    assert commitment(data["seed"]) == data["commitment"]
    data["actions"] = data["actions"][:-1]
    assert not verify(data, get).ok


@pytest.mark.parametrize("path", FORMAT_2, ids=lambda p: p.stem)
def test_format_2_records_still_verify(path: Path) -> None:
    """Signed records of matches dealt before seats committed: contributions, no commitments."""
    data = json.loads(path.read_text())
    assert data["format"] == 2 and "commitments" not in data
    verdict = verify(data, get)
    assert verdict.ok, verdict.problems
    assert verdict.notes == () and verdict.key_id is not None
    record = MatchRecord.from_json(data)
    assert record.seed == match_seed(data["secret"], data["table"], data["contributions"])
    assert [p.check for p in verify({**data, "commitments": [None] * 2}, get).problems] == [
        "record"
    ]


def test_the_table_never_shows_the_secret_before_the_end() -> None:
    game = get("heroes")
    players = [Player("Ana"), Player("Bot", True, "random")]
    match = Match(game, None, Deal("top-secret-" + "0" * 52, "t9", ("ana", None)), players)
    assert "top-secret" not in repr(match) and "top-secret" not in repr(match.deal)
    pick = random.Random(3)
    while (seat := match.to_move) is not None:
        for viewer in (0, 1, None):
            text = json.dumps(match.view(viewer))
            assert "top-secret" not in text and match.seed not in text
        match.act(seat, pick.choice(match.legal(seat)))
    view = match.view(0)
    assert view["secret"] == match.deal.secret and view["seed"] == match.seed
