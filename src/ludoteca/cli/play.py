"""``ludoteca play GAME``: a match against bots in this terminal (``ludoteca.cli.terminal``), dealt
as the server deals (the table's secret and your own seed), its record written at the end."""

from __future__ import annotations

import argparse
import os
import secrets
import shutil
import sys
from pathlib import Path
from typing import Any

from ludoteca.bots import LEVELS, make_bot
from ludoteca.cli.arguments import (
    Commands,
    UsageError,
    add_option_argument,
    bot_levels,
    game_help,
    table_params,
)
from ludoteca.cli.terminal import StreamKeyboard, Terminal, TerminalTable
from ludoteca.core import JSON, Deal, Game, Match, Player
from ludoteca.core.fairness import (
    commitment,
    contribution_problem,
    fingerprint,
    is_hex64,
    new_contribution,
    new_salt,
    new_secret,
    seat_commitment,
)
from ludoteca.core.prelude import (
    close_event,
    commit_event,
    create_event,
    reveal_event,
    sit_event,
)
from ludoteca.core.record import PRELUDE_FORMAT
from ludoteca.games import get


def add_parser(commands: Commands) -> None:
    play = commands.add_parser("play", help="play a match in the terminal against bots")
    play.add_argument("game", help=game_help())
    play.add_argument("--players", type=int, help="number of seats (default: the game's minimum)")
    add_option_argument(play)
    play.add_argument("--seat", type=int, default=1, help="your seat, 1-based (default 1)")
    play.add_argument("--bots", default="medium", help=f"bot level(s) ({', '.join(LEVELS)})")
    play.add_argument(
        "--seed", help="the table's secret, 64 lowercase hex digits (default: a fresh one)"
    )
    play.add_argument(
        "--my-seed", help="your own contribution to the deal (default: a fresh random one)"
    )
    play.add_argument(
        "--turn-seconds",
        type=int,
        default=120,
        help="your time per turn; past it the table plays for you (default 120, 0: no clock)",
    )
    play.add_argument("--lang", default="en", help="language of the sentences: en, pt or de")
    play.add_argument(
        "--record",
        type=Path,
        metavar="FILE",
        help="where the match record is written at the end (default: <game>-<table>.json here)",
    )
    play.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    game = get(args.game)
    players = game.spec.params({"players": args.players or game.spec.min_players})["players"]
    params = table_params(game, players, args.option)
    if not 1 <= args.seat <= players:
        raise UsageError(f"--seat must be between 1 and {players}")
    if args.turn_seconds < 0:
        raise UsageError("--turn-seconds must be 0 (no clock) or more")
    human = args.seat - 1
    others = bot_levels(args.bots, players - 1) if players > 1 else []
    levels: list[str | None] = [*others[:human], None, *others[human:]]
    secret = args.seed or new_secret()
    if not is_hex64(secret):
        raise UsageError("--seed: the table's secret is 64 lowercase hex digits")
    mine = args.my_seed or new_contribution()
    problem = contribution_problem(mine)
    if problem:
        raise UsageError(f"--my-seed: {problem}")
    seats = [
        Player("you") if lv is None else Player(f"{lv} bot", bot=True, level=lv) for lv in levels
    ]
    salt = new_salt()
    promised = seat_commitment(mine, salt)
    table_id = f"terminal-{secrets.token_hex(4)}"
    deal = table_deal(game, params, seats, human, (secret, table_id, mine, salt))
    match = Match(game, params, deal, seats)
    bots = {seat: make_bot(lv, game) for seat, lv in enumerate(levels) if lv is not None}
    live = os.name == "posix" and sys.stdin.isatty() and sys.stdout.isatty()  # select() on stdin
    table = TerminalTable(
        match,
        human,
        bots,
        term=Terminal(game, args.lang),
        out=sys.stdout,
        keys=StreamKeyboard(sys.stdin, live),
        turn_seconds=args.turn_seconds,
        live=live,
        record_path=args.record,
        width=shutil.get_terminal_size().columns,
    )
    table.intro = [
        f"{game.spec.name(args.lang)} — table {table_id} — you are seat {args.seat} of {players}.",
        *options_line(game, params, args.lang),
        f"The table's commitment: {commitment(secret)} ({fingerprint(commitment(secret))})",
        f"Your seed, mixed into the deal: {mine} (salt {salt})",
        f"Your commitment, sent before any seed was revealed: {promised}",
        "Type the number of an action or the action, '?' for all of them, 'resign' to give up"
        " (against one bot it wins; against more, a bot finishes for you), 'abort' (before your"
        " first move) to end it with no result, 'quit' to leave.",
    ]
    return table.run()


def table_deal(
    game: Game[Any, Any],
    params: JSON,
    seats: list[Player],
    human: int,
    given: tuple[str, str, str, str],
) -> Deal:
    """The deal of a terminal table as the server makes it (record format 5): ``given`` is the
    table's secret, its id, the person's seed and salt. Its prelude: the table made, every seat
    taken, the person's commitment, the close, their reveal
    (docs/fairness.md#the-prelude-format-5)."""
    secret, table_id, mine, salt = given
    promised = seat_commitment(mine, salt)
    people = [n == human for n in range(len(seats))]
    events = [create_event(game.spec.id, game.spec.params(params), table_id, commitment(secret))]
    events += [sit_event(n, p.name, p.bot, p.level) for n, p in enumerate(seats)]
    events += [commit_event(human, promised), close_event(), reveal_event(human, mine, salt)]
    return Deal(
        secret,
        table_id,
        tuple(mine if person else None for person in people),
        tuple(promised if person else None for person in people),
        tuple(salt if person else None for person in people),
        PRELUDE_FORMAT,
        tuple(events),
    )


def options_line(game: Game[Any, Any], params: JSON, lang: str) -> list[str]:
    """The table's options in words (``options.json`` of the game), one line; none without."""
    listed = game.options_json()
    if not listed:
        return []
    said = [
        f"{o['label'].get(lang, o['label']['en'])}: "
        f"{o['value_labels'].get(lang, o['value_labels']['en'])[str(params[o['name']])]}"
        for o in listed
    ]
    return [" · ".join(said)]
