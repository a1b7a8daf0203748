"""The ``ludoteca`` command's defaults are the server's own: ``serve``, ``db`` and ``keys`` take
host, port, database, Redis, processes and key folder from ``ludoteca.server.config``, which alone
reads the server's ``LUDOTECA_*`` variables."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from ludoteca.cli import build_parser
from ludoteca.server import config
from ludoteca.server.config import Settings

SRC = Path(__file__).resolve().parents[1] / "src"
SERVED = ("HOST", "PORT", "DB", "REDIS", "WORKERS", "KEYS")


def defaults() -> tuple[object, ...]:
    parser = build_parser()
    serve = parser.parse_args(["serve"])
    return (
        serve.host,
        serve.port,
        serve.db,
        serve.redis,
        serve.workers,
        parser.parse_args(["db", "current"]).db,
        parser.parse_args(["db", "upgrade"]).db,
        parser.parse_args(["keys", "list"]).dir,
    )


def test_without_the_environment_the_defaults_are_the_servers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in SERVED:
        monkeypatch.delenv(f"LUDOTECA_{name}", raising=False)
    settings = Settings.from_env()
    db = settings.db_url
    assert db == config.DEFAULT_DB
    assert settings.keys_dir == config.DEFAULT_KEYS
    assert defaults() == ("127.0.0.1", 8000, db, None, 1, db, db, Path(config.DEFAULT_KEYS))


def test_the_environment_sets_the_command_and_the_server_alike(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    given = {
        "HOST": "0.0.0.0",
        "PORT": "8123",
        "DB": "postgresql://u@db/ludoteca",
        "REDIS": "redis://127.0.0.1:6379/0",
        "WORKERS": "3",
        "KEYS": str(tmp_path / "keys"),
    }
    for name, value in given.items():
        monkeypatch.setenv(f"LUDOTECA_{name}", value)
    settings = Settings.from_env()
    assert (settings.db_url, settings.redis_url, settings.keys_dir) == (
        given["DB"],
        given["REDIS"],
        given["KEYS"],
    )
    db = given["DB"]
    assert defaults() == ("0.0.0.0", 8123, db, given["REDIS"], 3, db, db, tmp_path / "keys")


def test_an_empty_database_variable_means_the_default_for_every_command(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("LUDOTECA_DB", "")
    assert Settings.from_env().db_url == config.DEFAULT_DB
    assert defaults()[2] == defaults()[5] == config.DEFAULT_DB


def test_a_bad_port_in_the_environment_refuses_serve_only(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("LUDOTECA_PORT", "eighty")
    parser = build_parser()  # building the parser reads the variable but does not judge it
    assert parser.parse_args(["keys", "list"]).action == "list"
    with pytest.raises(SystemExit) as refused:
        parser.parse_args(["serve"])
    assert refused.value.code == 2
    assert "--port" in capsys.readouterr().err
    assert parser.parse_args(["serve", "--port", "8001"]).port == 8001


def environment_readers() -> dict[str, int]:
    """Each module under ``src/ludoteca`` that reads ``os.environ`` (or ``os.getenv``), with the
    line of its first read; setting a variable (``os.environ[name] = ...``) is not a read."""
    found: dict[str, int] = {}
    for path in sorted((SRC / "ludoteca").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        stores = {
            id(node.value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store | ast.Del)
        }
        for node in ast.walk(tree):
            read = (
                isinstance(node, ast.Attribute)
                and node.attr in ("environ", "getenv")
                and id(node) not in stores
            ) or (
                isinstance(node, ast.ImportFrom)
                and node.module == "os"
                and any(a.name in ("environ", "getenv") for a in node.names)
            )
            if read:
                name = ".".join(path.relative_to(SRC).with_suffix("").parts)
                found.setdefault(name, getattr(node, "lineno", 0))
    return found


def test_only_the_servers_config_reads_the_environment() -> None:
    """Besides ``server/config.py``: ``LUDOTECA_GAMES`` (the catalogue's plugins) and
    ``LUDOTECA_PURE`` (the rules uncompiled), read by every command alike where they act, and
    the C compiler's ``CC`` when the rules are compiled (docs/deploy.md names them)."""
    assert set(environment_readers()) == {
        "ludoteca.server.config",
        "ludoteca.games.__init__",
        "ludoteca.native.__init__",
        "ludoteca.native.__main__",
    }
