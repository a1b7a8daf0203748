"""Clean-room agreement: the verifier written from the docs alone against `ludoteca verify`.

    .venv/bin/python bench/cleanroom.py [--records 1000] [--medium 100] [--tamper 10] [--out DIR]

For every game and player count it writes `--records` signed format-4 records with `ludoteca
simulate --commit` (random bots, and `--medium` of them between medium bots; each seat is a person
who commits and reveals or withholds, or a bot that commits to nothing), plus tampered variants,
receipts and key checks of the first `--tamper` records, and format-1 records of matches played
at random from other seeds (`--histories` of them, and the rare endings found in
`--rare-seconds`); then judges
every file with tests/cleanroom/verifier.py and with `ludoteca verify` (its console entry point
in `--jobs` worker processes; `--subprocess` runs the command itself per file) and prints how
often the two verdicts (ok, or the failing check and step) agree.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "cleanroom"))

import cleanroom_harness as harness

# Endings that bots rarely reach: a Heroes hero in the rival camp, a Dwarves race or extra dwarf.
RARE = ("camp", "race", "extra-dwarf")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=1000, help="records per configuration")
    parser.add_argument("--medium", type=int, default=100, help="of them, medium-bot matches")
    parser.add_argument("--tamper", type=int, default=10, help="records tampered per config")
    parser.add_argument(
        "--histories", type=int, default=200, help="random format-1 matches per configuration"
    )
    parser.add_argument(
        "--rare-seconds",
        type=float,
        default=10,
        help="per configuration, play random matches this long and keep the rare endings",
    )
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", type=Path, help="working directory (default: a temporary one)")
    parser.add_argument("--subprocess", action="store_true", help="run `ludoteca verify` per file")
    args = parser.parse_args()
    out = args.out or Path(tempfile.mkdtemp(prefix="cleanroom-"))
    started = time.perf_counter()
    records: list[tuple[str, Path]] = []
    for game, players in harness.CONFIGS:
        config = f"{game}/{players}"
        base = out / f"{game}-{players}"
        for level, count, seed in (
            ("random", args.records - args.medium, args.seed),
            ("medium", args.medium, args.seed + 1),
        ):
            existing = sorted((base / level).glob(f"{game}-*.json"))
            if len(existing) != count and count > 0:
                # --out of an earlier run with the same counts reuses its records.
                existing = harness.simulate(
                    game, players, count, seed=seed, level=level, out=base / level
                )
            records += [(config, p) for p in existing]
        print(f"{config}: {sum(1 for c, _ in records if c == config)} records", flush=True)
    generated = time.perf_counter() - started
    cases = [harness.Case("valid", path, config=config) for config, path in records]
    cases += harness.write_cases(records, out / "tampered", args.tamper, args.seed)
    rng = random.Random(args.seed)
    (out / "histories").mkdir(exist_ok=True)
    for game, players in harness.CONFIGS:
        for i in range(args.histories):
            rec = harness.history_record(game, players, f"cleanroom-{game}-{players}-{i}", rng)
            path = out / "histories" / f"{game}-{players}-{i:04d}.json"
            path.write_text(json.dumps(rec))
            cases.append(harness.Case("random history", path, config=f"{game}/{players}"))
    rare: Counter[str] = Counter()
    for game, players in harness.CONFIGS:
        deadline, i = time.perf_counter() + args.rare_seconds, 0
        while time.perf_counter() < deadline:
            seed = f"rare-{game}-{players}-{i}"
            rec = harness.history_record(game, players, seed, rng)
            i += 1
            outcome = rec["outcome"]
            kind = f"rare {game} {outcome['reason']}" + (" shared" if outcome["draw"] else "")
            if (outcome["draw"] or outcome["reason"] in RARE) and rare[kind] < 20:
                rare[kind] += 1
                path = out / "histories" / f"rare-{game}-{players}-{i:05d}.json"
                path.write_text(json.dumps(rec))
                cases.append(harness.Case(kind, path, config=f"{game}/{players}"))
    seat_lines = [
        (config, _line_kind(given, promised))
        for config, path in records
        for given, promised in _seats(json.loads(path.read_text()))
    ]
    reasons = Counter(
        (config, json.loads(path.read_text())["outcome"]["reason"]) for config, path in records
    )
    started = time.perf_counter()
    own = [harness.own_verdict(c) for c in cases]
    own_seconds = time.perf_counter() - started
    started = time.perf_counter()
    cli = harness.cli_verdicts(cases, args.jobs, args.subprocess)
    cli_seconds = time.perf_counter() - started

    by_config: Counter[tuple[str, bool]] = Counter()
    by_kind: Counter[tuple[str, bool]] = Counter()
    verdicts: Counter[tuple[str, str]] = Counter()
    disagreements = []
    for case, mine, theirs in zip(cases, own, cli, strict=True):
        same = mine == theirs
        if case.kind == "valid":
            by_config[case.config, same] += 1
        else:
            by_kind[case.kind, same] += 1
            verdicts[case.kind, theirs.split(" step")[0]] += 1
        if not same:
            disagreements.append((case, mine, theirs))

    print(f"\nworking directory {out}")
    print(f"generated in {generated:.0f} s; clean-room verifier {own_seconds:.0f} s, ", end="")
    print(f"ludoteca verify {cli_seconds:.0f} s")
    print("\nsigned records as written (both must say ok):")
    print(f"  {'configuration':<16}{'records':>8}{'agree':>8}")
    for game, players in harness.CONFIGS:
        config = f"{game}/{players}"
        total = by_config[config, True] + by_config[config, False]
        print(f"  {config:<16}{total:>8}{by_config[config, True]:>8}")
    print("\nseat lines of the simulated records (format 4):")
    print(f"  {'configuration':<16}{'revealed':>9}{'withheld':>9}{'none':>6}")
    for game, players in harness.CONFIGS:
        config = f"{game}/{players}"
        lines = Counter(kind for c, kind in seat_lines if c == config)
        print(f"  {config:<16}{lines['revealed']:>9}{lines['withheld']:>9}{lines['none']:>6}")
    print("\nendings of the simulated matches:")
    for game, players in harness.CONFIGS:
        config = f"{game}/{players}"
        seen = ", ".join(f"{r} {n}" for (c, r), n in sorted(reasons.items()) if c == config)
        print(f"  {config:<16}{seen}")
    kinds = sorted({kind for kind, _ in by_kind})
    print("\nchanged records, receipts and keys (verdict of ludoteca verify):")
    print(f"  {'variant':<26}{'cases':>6}{'agree':>7}  verdicts")
    for kind in kinds:
        total = by_kind[kind, True] + by_kind[kind, False]
        seen = ", ".join(f"{v} {n}" for (k, v), n in sorted(verdicts.items()) if k == kind)
        print(f"  {kind:<26}{total:>6}{by_kind[kind, True]:>7}  {seen}")
    valid_total = sum(n for (c, _), n in by_config.items())
    valid_agree = sum(n for (c, same), n in by_config.items() if same)
    other_total = sum(by_kind.values())
    other_agree = sum(n for (_, same), n in by_kind.items() if same)
    for name, agree, total in (
        ("records", valid_agree, valid_total),
        ("changed", other_agree, other_total),
    ):
        print(f"{name}: {agree}/{total} agree ({100 * agree / max(total, 1):.2f}%)")
    for case, mine, theirs in disagreements[:30]:
        print(f"DISAGREE {case.kind}: {case.path} {case.receipts} clean-room={mine} cli={theirs}")
    return 0 if not disagreements else 1


def _seats(rec: dict[str, object]) -> list[tuple[object, object]]:
    given, promised = rec.get("contributions"), rec.get("commitments")
    assert isinstance(given, list) and isinstance(promised, list)
    return list(zip(given, promised, strict=True))


def _line_kind(given: object, promised: object) -> str:
    if given is not None:
        return "revealed"
    return "withheld" if promised is not None else "none"


if __name__ == "__main__":
    sys.exit(main())
