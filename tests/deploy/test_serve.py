"""``ludoteca serve --workers N`` and the client address behind a proxy, on real processes."""

from __future__ import annotations

import io
import logging
import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from kit import processes
from kit.env import seconds
from kit.servers import ServerProcess, close_api, free_port, healthy
from kit.wait import eventually
from ludoteca.cli import build_parser
from ludoteca.server.config import Settings
from ludoteca.server.logs import TextFormatter, log_format
from ludoteca.server.main import share_address, url_of, uvicorn_options, workers_problem


def serve(*args: str, env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """``ludoteca serve ARGS`` run to its end (a refused start ends at once)."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith("LUDOTECA_")}
    return subprocess.run(
        [sys.executable, "-m", "ludoteca.cli", "serve", "--port", str(free_port()), *args],
        env={**clean, **env},
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=seconds(60),
        check=False,
    )


# ------------------------------------------------------------------------- --workers refused
REDIS = "redis://127.0.0.1:6379/0"


@pytest.mark.slow  # a `ludoteca serve` process per case
@pytest.mark.parametrize(
    ("args", "env", "needs"),
    [
        (["--workers", "2"], {}, ["PostgreSQL", "Redis"]),  # the default SQLite file
        (["--workers", "3", "--db", "memory://"], {}, ["PostgreSQL", "Redis"]),
        (["--workers", "2", "--redis", REDIS], {}, ["PostgreSQL"]),
        (["--db", "postgresql://nobody@127.0.0.1:1/none", "--workers", "2"], {}, ["Redis"]),
        (
            [],
            {"LUDOTECA_WORKERS": "2", "LUDOTECA_DB": "sqlite:///x.db", "LUDOTECA_REDIS": REDIS},
            ["PostgreSQL"],
        ),
    ],
    ids=["sqlite-default", "memory", "sqlite-with-redis", "postgres-without-redis", "env"],
)
def test_workers_without_a_shared_database_and_redis_are_refused(
    tmp_path: Path, args: list[str], env: dict[str, str], needs: list[str]
) -> None:
    done = serve(*args, env=env, cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    message = done.stderr.strip().splitlines()[-1]
    assert message.startswith("ludoteca: --workers ")
    for need in ["PostgreSQL", "Redis"]:
        assert (need in message) == (need in needs), message
    assert "the table is at" not in done.stdout  # refused before anything started
    assert not (tmp_path / "var").exists(), "no database or key was made"


@pytest.mark.parametrize("given", ["0", "-1", "two", "1.5"])
def test_workers_must_be_a_whole_number_of_one_or_more(
    given: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("LUDOTECA_WORKERS", raising=False)
    with pytest.raises(SystemExit) as refused:
        build_parser().parse_args(["serve", "--workers", given])
    assert refused.value.code == 2
    assert "--workers" in capsys.readouterr().err
    monkeypatch.setenv("LUDOTECA_WORKERS", given)
    with pytest.raises(SystemExit):
        build_parser().parse_args(["serve"])


def test_workers_come_from_the_option_else_ludoteca_workers_else_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("LUDOTECA_WORKERS", raising=False)
    assert build_parser().parse_args(["serve"]).workers == 1
    monkeypatch.setenv("LUDOTECA_WORKERS", "3")
    assert build_parser().parse_args(["serve"]).workers == 3
    assert build_parser().parse_args(["serve", "--workers", "5"]).workers == 5


def test_which_settings_may_run_several_workers() -> None:
    postgres = "postgresql://u@db/ludoteca"
    redis = "redis://127.0.0.1:6379/0"
    assert workers_problem(1, Settings()) is None  # one process: anything goes
    assert workers_problem(1, Settings(db_url="memory://")) is None
    assert workers_problem(4, Settings(db_url=postgres, redis_url=redis)) is None
    psycopg_url = "postgresql+psycopg://u@db/x"
    assert workers_problem(4, Settings(db_url=psycopg_url, redis_url=redis)) is None
    assert "Redis" in (workers_problem(2, Settings(db_url=postgres)) or "")
    sqlite = Settings(db_url="sqlite:///a", redis_url=redis)
    assert "PostgreSQL" in (workers_problem(2, sqlite) or "")
    assert workers_problem(0, Settings(db_url=postgres, redis_url=redis)) is not None


def test_forwarded_allow_ips_reach_uvicorn(monkeypatch: pytest.MonkeyPatch) -> None:
    """No proxy is believed unless named (it used to be 127.0.0.1 by default)."""
    monkeypatch.delenv("LUDOTECA_FORWARDED_ALLOW_IPS", raising=False)
    assert uvicorn_options(Settings.from_env())["proxy_headers"] is False
    monkeypatch.setenv("LUDOTECA_FORWARDED_ALLOW_IPS", "10.0.0.5,10.0.1.0/24")
    options = uvicorn_options(Settings.from_env())
    assert options["proxy_headers"] is True
    assert options["forwarded_allow_ips"] == "10.0.0.5,10.0.1.0/24"
    monkeypatch.setenv("LUDOTECA_FORWARDED_ALLOW_IPS", "10.0.0.5,nginx")
    assert Settings.from_env().problems() == [
        "LUDOTECA_FORWARDED_ALLOW_IPS: 'nginx' does not appear to be an IPv4 or IPv6 network"
    ]


# -------------------------------------------------------------------- --workers that serve
@pytest.mark.postgres
def test_two_workers_serve_one_address_and_stop_together(
    tmp_path: Path, postgres_url: str, redis_url: str
) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with (tmp_path / "serve.log").open("w") as log:
        process = processes.spawn(
            [sys.executable, "-m", "ludoteca.cli", "serve", "--port", str(port), "--workers", "2"],
            f"ludoteca serve --workers 2 on {base}",
            cwd=tmp_path,
            env={**os.environ, "LUDOTECA_DB": postgres_url, "LUDOTECA_REDIS": redis_url},
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    try:
        processes.wait_ready(
            process,
            lambda: healthy(base),
            f"the server at {base} answering /healthz",
            60,
            lambda: processes.tail(tmp_path / "serve.log"),
        )
        # the second worker may still be starting
        started = (tmp_path / "serve.log").read_text
        eventually(lambda: started().count('"server_started"') >= 2, 30, what="both workers")
        text = started()
        assert "2 processes" in text
        assert text.count('"server_started"') == 2, text  # the JSON logs of both workers
        health = httpx.get(f"{base}/healthz").json()
        assert health["db"] == "postgresql" and health["limits"] == "redis"
        # one signing key, made before the workers started (not one per worker)
        assert len(list((tmp_path / "var" / "keys").glob("*.pem"))) == 1
        created = httpx.post(f"{base}/api/tables", json={"game": "heroes", "name": "Ana"})
        assert created.status_code == 201
    finally:
        process.terminate()  # the parent alone, as systemd's stop: it stops its workers
        code = process.wait(timeout=seconds(30))
    assert code == 0
    assert (tmp_path / "serve.log").read_text().count('"server_stopped"') == 2


# ------------------------------------------------------------- the client behind a proxy
def create_from(base: str, forwarded_for: str) -> int:
    """POST /api/tables as if a local proxy forwarded a request of ``forwarded_for``."""
    answer = httpx.post(
        f"{base}/api/tables",
        json={"game": "heroes", "name": "A"},
        headers={"X-Forwarded-For": forwarded_for},
    )
    return answer.status_code


@pytest.mark.slow
def test_the_local_proxy_s_forwarded_address_is_what_the_limits_count(tmp_path: Path) -> None:
    """From 127.0.0.1 named as the proxy, X-Forwarded-For names the client: each forwarded
    address has its own allowance; a proxy not in LUDOTECA_FORWARDED_ALLOW_IPS is not believed,
    and by default none is (rotating the header from loopback used to create table after table
    past the limit)."""
    limits = {"LUDOTECA_LIMIT_CREATE": "2/minute"}
    trusting = ServerProcess(
        tmp_path,
        f"sqlite:///{tmp_path}/a.sqlite3",
        env={**limits, "LUDOTECA_FORWARDED_ALLOW_IPS": "127.0.0.1"},
    ).start()
    try:
        first = [create_from(trusting.base, "203.0.113.7") for _ in range(3)]
        assert first == [201, 201, 429]
        assert create_from(trusting.base, "203.0.113.8") == 201  # another client: its own count
        # the right-most address not a trusted proxy is the client (a chain of proxies)
        assert create_from(trusting.base, "198.51.100.1, 203.0.113.8") == 201
        assert create_from(trusting.base, "198.51.100.1, 203.0.113.8") == 429
    finally:
        close_api(trusting.base)
        trusting.terminate()

    for name, env in [
        ("b", {**limits, "LUDOTECA_FORWARDED_ALLOW_IPS": "192.0.2.1"}),
        ("c", {**limits, "LUDOTECA_FORWARDED_ALLOW_IPS": ""}),  # the default: no proxy
    ]:
        doubting = ServerProcess(tmp_path, f"sqlite:///{tmp_path}/{name}.sqlite3", env=env)
        doubting.start()
        try:
            # the header is ignored: every request is 127.0.0.1's
            codes = [create_from(doubting.base, f"203.0.113.{n}") for n in range(3)]
            assert codes == [201, 201, 429]
        finally:
            close_api(doubting.base)
            doubting.terminate()


# ---------------------------------------------------------------------------- bad settings
@pytest.mark.slow  # a `ludoteca serve` process per case
@pytest.mark.parametrize(
    ("env", "args", "said"),
    [
        ({"LUDOTECA_LEASE_SECONDS": "0"}, [], "LUDOTECA_LEASE_SECONDS must be at least 0.5"),
        ({"LUDOTECA_MAX_CONNECTIONS": "-5"}, [], "LUDOTECA_MAX_CONNECTIONS must be at least 1"),
        ({"LUDOTECA_BOT_DELAY": "-1"}, [], "LUDOTECA_BOT_DELAY must be at least 0"),
        ({"LUDOTECA_BOT_DELAY": "soon"}, [], "LUDOTECA_BOT_DELAY must be a number, not 'soon'"),
        ({"LUDOTECA_MAX_CONNECTIONS": "many"}, [], "must be a whole number, not 'many'"),
        ({"LUDOTECA_LIMIT_CREATE": "lots"}, [], "LUDOTECA_LIMIT_CREATE is 'N/second'"),
        ({}, ["--redis", "127.0.0.1:6379"], "the Redis address is redis://HOST:PORT/DB"),
        ({"LUDOTECA_LOG_FORMAT": "yaml"}, [], "LUDOTECA_LOG_FORMAT is json or text, not 'yaml'"),
    ],
    ids=[
        "lease",
        "connections",
        "bot-delay",
        "not-a-number",
        "not-a-whole-number",
        "limit",
        "redis-scheme",
        "log-format",
    ],
)
def test_a_bad_setting_is_one_clear_line_before_anything_starts(
    tmp_path: Path, env: dict[str, str], args: list[str], said: str
) -> None:
    done = serve(*args, env=env, cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert lines and all(line.startswith("ludoteca: ") for line in lines), done.stderr
    assert any(said in line for line in lines), done.stderr
    assert "the table is at" not in done.stdout
    assert not (tmp_path / "var").exists(), "nothing was made"


# ------------------------------------------------------------- the first start, as a person
@pytest.mark.slow
def test_a_port_in_use_is_one_clear_line_naming_the_setting(tmp_path: Path) -> None:
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "ludoteca.cli", "serve", "--port", str(port)],
            env={k: v for k, v in os.environ.items() if not k.startswith("LUDOTECA_")},
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=seconds(60),
            check=False,
        )
    assert done.returncode == 1
    assert done.stdout == ""  # no "the table is at", no "startup complete"
    lines = done.stderr.strip().splitlines()
    assert lines == [
        f"ludoteca: port {port} is already in use on 127.0.0.1: stop the program holding it, "
        "or choose another port with --port N (or LUDOTECA_PORT=N)"
    ]
    assert not (tmp_path / "var").exists(), "nothing was made"


@pytest.mark.slow
def test_on_the_network_it_prints_one_address_others_can_use_and_invites_name_it(
    tmp_path: Path,
) -> None:
    server = ServerProcess(
        tmp_path,
        f"sqlite:///{tmp_path}/a.sqlite3",
        env={"LUDOTECA_HOST": "0.0.0.0", "LUDOTECA_LOG_FORMAT": "text"},
    ).start()
    try:
        shared = share_address("0.0.0.0")
        if shared is None:
            pytest.skip("this machine has no address beyond loopback")
        url = f"http://{shared}:{server.port}"
        created = httpx.post(f"{server.base}/api/tables", json={"game": "heroes", "name": "Ana"})
        table = created.json()["table"]["id"]
        # asked from this machine (127.0.0.1), the invite names the network address
        assert created.json()["invite"] == f"{url}/table/{table}"
        # asked through the network address, it is that address
        seen = httpx.get(f"{url}/api/tables/{table}").json()
        assert seen["invite"] == f"{url}/table/{table}"
        qr = httpx.get(f"{server.base}/api/tables/{table}/invite.svg")
        assert qr.status_code == 200
        assert qr.headers["content-type"] == "image/svg+xml"
        assert qr.text.startswith("<svg") and f"{url}/table/{table}" in qr.text  # its title
        assert httpx.get(f"{server.base}/api/tables/nothing/invite.svg").status_code == 404
        log = server.log_text()
    finally:
        close_api(server.base)
        server.terminate()
    addresses = re.findall(r"https?://[^\s/]+", log)
    assert addresses == [f"http://{shared}:{server.port}"], log  # one address, not uvicorn's
    assert "other devices on your network" in log
    assert "Uvicorn running on" not in log
    started = next(line for line in log.splitlines() if "server_started" in line)
    assert not started.startswith("{"), started  # readable text, as LUDOTECA_LOG_FORMAT says
    assert re.match(r"\d\d:\d\d:\d\d info +server_started ", started), started


def test_logs_are_text_on_a_terminal_and_json_elsewhere(monkeypatch: pytest.MonkeyPatch) -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.delenv("LUDOTECA_LOG_FORMAT", raising=False)
    assert log_format(Terminal()) == "text"
    assert log_format(io.StringIO()) == "json"
    monkeypatch.setenv("LUDOTECA_LOG_FORMAT", "json")
    assert log_format(Terminal()) == "json"
    monkeypatch.setenv("LUDOTECA_LOG_FORMAT", "TEXT")
    assert log_format(io.StringIO()) == "text"
    monkeypatch.setenv("LUDOTECA_LOG_FORMAT", "yaml")
    with pytest.raises(ValueError, match="LUDOTECA_LOG_FORMAT is json or text"):
        log_format(io.StringIO())
    record = logging.LogRecord("ludoteca", logging.INFO, __file__, 1, "table_created", None, None)
    record.fields = {"table": "Q9W1", "name": "Ana Bia", "seats": [0, 1]}
    line = TextFormatter().format(record)
    assert re.fullmatch(
        r'\d\d:\d\d:\d\d info +table_created table=Q9W1 name="Ana Bia" seats=\[0,1\]', line
    )


def test_only_loopback_keeps_to_this_machine() -> None:
    assert share_address("127.0.0.1") is None
    assert share_address("::1") is None
    assert share_address("localhost") is None
    assert share_address("192.168.1.20") == "192.168.1.20"
    assert url_of("fe80::1", 8000) == "http://[fe80::1]:8000/"
