"""deploy/nginx.conf in front of two ``ludoteca serve`` processes on one PostgreSQL and Redis:
whole matches played through nginx (HTTP and websockets, the two people's sockets on different
processes), the record fetched through nginx and verified, and the client's address reaching the
per-address limits.

nginx is Debian's: installed here when missing (``make nginx`` does the same); without it the
tests skip with the reason, except under CI=true, where they must run.

The ``one-process`` variant lists the same process twice in the upstream: the proxying alone.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import re
import secrets
import shutil
import socket
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from kit import processes
from kit.client import Client
from kit.env import missing, seconds
from kit.servers import ServerProcess, close_api, free_port, health

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "deploy" / "nginx.conf"

pytestmark = pytest.mark.postgres


# ---------------------------------------------------------------------------------- nginx
def find_nginx() -> str | None:
    return shutil.which("nginx") or next(
        (p for p in ("/usr/sbin/nginx", "/usr/local/sbin/nginx") if os.access(p, os.X_OK)), None
    )


def install_nginx() -> str:
    """Debian's nginx, as root or through sudo (``make nginx`` does the same)."""
    sudo = [] if os.geteuid() == 0 else ["sudo", "-n"]
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for command in (["apt-get", "update", "-qq"], ["apt-get", "install", "-y", "-qq", "nginx"]):
        done = subprocess.run(
            [*sudo, *command],
            env=env,
            capture_output=True,
            text=True,
            timeout=seconds(600),
            check=False,
        )
        if done.returncode != 0:
            return f"`{' '.join([*sudo, *command])}` failed: {done.stderr.strip()[-300:]}"
    return ""


@pytest.fixture(scope="session")
def nginx_binary() -> str:
    found = find_nginx()
    if found is None:
        problem = install_nginx()
        found = find_nginx()
        if found is None:
            missing(
                f"nginx is not installed and could not be ({problem or 'not found after'}): "
                "make nginx"
            )
    return found


def site_config(upstreams: list[int], port: int) -> str:
    """deploy/nginx.conf with its upstream servers and its listen address replaced."""
    text = SITE.read_text()
    listed = re.compile(r"(?m)^\s*server 127\.0\.0\.1:\d+([^;]*);\n")
    first = listed.search(text)
    assert first, "deploy/nginx.conf lists its processes as `server 127.0.0.1:PORT ...;`"
    # each process with the parameters the file gives its own (max_fails, ...)
    servers = "".join(f"    server 127.0.0.1:{p}{first.group(1)};\n" for p in upstreams)
    text, count = listed.subn("", text)
    assert count >= 2, "deploy/nginx.conf lists two processes or more"
    text, count = re.subn(r"(upstream ludoteca \{\n(?:\s*#.*\n)*)", rf"\g<1>{servers}", text)
    assert count == 1, "deploy/nginx.conf has one `upstream ludoteca` block"
    text, count = re.subn(r"(?m)^\s*listen \[::\]:80;\n", "", text)
    text, count = re.subn(r"(?m)^(\s*)listen 80;", rf"\g<1>listen 127.0.0.1:{port};", text)
    assert count == 1, "deploy/nginx.conf listens on port 80"
    return text


def main_config(folder: Path, site: Path) -> str:
    """A whole nginx.conf around the site file, every path inside ``folder``."""
    temp = " ".join(
        f"{kind}_temp_path {folder / kind};" for kind in ("client_body", "proxy", "fastcgi")
    )
    return (
        f"pid {folder / 'nginx.pid'};\n"
        f"error_log {folder / 'error.log'} warn;\n"
        "worker_processes 1;\n"
        "events { worker_connections 512; }\n"
        "http {\n"
        f"    access_log {folder / 'access.log'};\n"
        f"    {temp}\n"
        f"    uwsgi_temp_path {folder / 'uwsgi'}; scgi_temp_path {folder / 'scgi'};\n"
        f"    include {site};\n"
        "}\n"
    )


@dataclass
class Nginx:
    port: int
    folder: Path
    process: subprocess.Popen[bytes]

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_base(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def stop(self) -> None:
        processes.stop(self.process, grace=20)  # SIGTERM: nginx's fast shutdown, its workers too

    def errors(self) -> str:
        path = self.folder / "error.log"
        return path.read_text(errors="replace") if path.exists() else ""


def start_nginx(binary: str, folder: Path, upstreams: list[int]) -> Nginx:
    folder.mkdir(parents=True, exist_ok=True)
    port = free_port()
    site = folder / "ludoteca.conf"
    site.write_text(site_config(upstreams, port))
    main = folder / "nginx.conf"
    main.write_text(main_config(folder, site))
    command = [binary, "-c", str(main), "-p", str(folder), "-e", str(folder / "error.log")]
    tested = subprocess.run([*command, "-t"], capture_output=True, text=True, check=False)
    assert tested.returncode == 0, tested.stderr
    process = processes.spawn(
        [*command, "-g", "daemon off;"],
        f"nginx on {port}",
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    server = Nginx(port, folder, process)

    def listening() -> bool:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
        except OSError:
            return False
        return True

    processes.wait_ready(process, listening, f"nginx listening on {port}", 20, server.errors)
    return server


# ------------------------------------------------------------------------------ the site
@dataclass
class Site:
    nginx: Nginx
    processes: list[ServerProcess]
    upstreams: list[ServerProcess]  # as listed in nginx (the same process twice: one-process)


@contextlib.contextmanager
def running_site(
    binary: str, db: str, redis_url: str, workdir: Path, env: dict[str, str], *, count: int = 2
) -> Iterator[Site]:
    """``count`` processes on ``db`` and Redis, with a Redis prefix of their own (processes of
    other runs on that Redis neither count as live nor take these tables' leases), behind nginx;
    one process is listed twice when ``count`` is 1."""
    env = {
        "LUDOTECA_REDIS": redis_url,
        "LUDOTECA_REDIS_PREFIX": f"ludoteca-test-{secrets.token_hex(4)}",
        "LUDOTECA_FORWARDED_ALLOW_IPS": "127.0.0.1",  # nginx, on this machine
        **env,
    }
    processes: list[ServerProcess] = []
    nginx: Nginx | None = None
    try:
        # one after the other: the first makes the schema and the signing key (var/keys in the
        # shared working directory), the second finds them
        for _ in range(count):
            processes.append(ServerProcess(workdir, db, env=env).start())
        upstreams = processes if count == 2 else processes * 2
        nginx = start_nginx(binary, workdir / "nginx", [p.port for p in upstreams])
        yield Site(nginx, processes, upstreams)
    finally:
        if nginx is not None:
            nginx.stop()
        for process in processes:
            close_api(process.base)
            if process.process is not None and process.process.poll() is None:
                process.terminate()


@pytest.fixture(params=["two-processes", "one-process"])
def site(
    request: pytest.FixtureRequest,
    nginx_binary: str,
    postgres_url: str,
    redis_url: str,
    tmp_path: Path,
) -> Iterator[Site]:
    env = {
        "LUDOTECA_LIMIT_CREATE": "4/minute",  # small enough to reach in the limits test
        "LUDOTECA_CONTRIBUTION_SECONDS": "5",
        # a busy machine's slow Redis answer must not let a request by uncounted (fail-open)
        "LUDOTECA_LIMITS_TIMEOUT": f"{seconds(2):.1f}",
    }
    count = 2 if request.param == "two-processes" else 1
    with running_site(nginx_binary, postgres_url, redis_url, tmp_path, env, count=count) as found:
        yield found


def source(address: str) -> httpx.Client:
    """An HTTP client whose connections come from ``address`` (any of 127.0.0.0/8 on Linux),
    closed at the end of the test that made it whatever happens (``_close_sources``)."""
    made = httpx.Client(transport=httpx.HTTPTransport(local_address=address), timeout=seconds(30))
    _sources.append(made)
    return made


_sources: list[httpx.Client] = []


@pytest.fixture(autouse=True)
def _close_sources() -> Iterator[None]:
    yield
    while _sources:
        _sources.pop().close()


def loopback() -> str:
    """A loopback address of its own, so the per-address limits (kept in the shared Redis)
    of one run never meet another's."""
    return f"127.{random.randrange(1, 255)}.{random.randrange(1, 255)}.{random.randrange(2, 255)}"


async def play_until_over(client: Client, pick: random.Random) -> None:
    """Random legal actions for the client's seat until the match ends."""
    while True:
        state = client.state
        if state is not None and state["view"] is not None:
            if state["view"]["over"]:
                return
            if state["legal"]:
                answer = await client.act(pick.choice(state["legal"]), state["version"])
                assert answer["type"] == "state", answer
                continue
        await client.recv(timeout=30)


def receipts(client: Client, table_id: str) -> list[dict[str, Any]]:
    """The chain heads the client was shown, as ``ludoteca verify --receipt`` reads them: before
    the deal by the number of events since the table's creation (``prelude``), then by version."""
    return [
        {"table": table_id, "prelude": len(m["prelude"]), "chain": m["chain"]}
        if m.get("prelude")
        else {"table": table_id, "version": m["version"], "chain": m["chain"]}
        for m in client.messages
        if m["type"] == "state" and m["chain"] is not None
    ]


def verify_through(
    site: Site, record: dict[str, Any], shown: list[dict[str, Any]], folder: Path
) -> str:
    """``ludoteca verify`` of the record against the keys the site publishes (through nginx)
    and the receipts the players kept."""
    (folder / "record.json").write_text(json.dumps(record))
    (folder / "receipts.json").write_text(json.dumps(shown))
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "ludoteca.cli",
            "verify",
            str(folder / "record.json"),
            "--receipt",
            str(folder / "receipts.json"),
            "--server",
            site.nginx.base,
        ],
        capture_output=True,
        text=True,
        timeout=seconds(120),
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "one of the server's keys" in done.stdout
    assert f"{len(shown)} receipt(s) agree" in done.stdout
    return done.stdout


# ---------------------------------------------------------------------------------- tests
def test_two_people_play_a_whole_match_through_nginx(site: Site, tmp_path: Path) -> None:
    """Both people's websockets go through nginx to different upstream entries (round robin:
    consecutive connections alternate); the match ends, and its record, fetched through nginx,
    checks out against the published keys and both people's receipts."""
    address = loopback()
    http = source(address)
    base = site.nginx.base
    created = http.post(
        f"{base}/api/tables",
        json={"game": "heroes", "seats": [{"bot": False}] * 2, "name": "Ana"},
    )
    assert created.status_code == 201, created.text
    table_id = created.json()["table"]["id"]
    # the links the server makes name the address the client used: nginx's
    assert created.json()["websocket"] == f"{site.nginx.ws_base}/ws/tables/{table_id}"
    # the last free seat taken starts the table
    joined = http.post(f"{base}/api/tables/{table_id}/join", json={"name": "Bruno"}).json()
    tokens = [created.json()["token"], joined["token"]]
    # each person's client commits and reveals once connected (kit.client.Client)

    async def scenario() -> list[Client]:
        people: list[Client] = []
        try:
            for token in tokens:  # one after the other: consecutive upstream entries
                people.append(await Client.connect(site.nginx.ws_base, table_id, token))
                await people[-1].until(lambda m: m["type"] == "state")
            # one socket on each upstream entry: on two processes, one socket each
            if len(site.processes) == 2:
                assert [health(p.base)["connections"] for p in site.processes] == [1, 1]
            else:
                assert health(site.processes[0].base)["connections"] == 2
            plays = (play_until_over(c, random.Random(n)) for n, c in enumerate(people))
            await asyncio.wait_for(asyncio.gather(*plays), seconds(240))
        finally:
            for client in people:
                await client.close()
        return people

    ana, bruno = asyncio.run(scenario())
    for client in (ana, bruno):
        assert client.state is not None and client.state["view"]["over"]
    assert ana.state and bruno.state and ana.state["version"] == bruno.state["version"]
    got = http.get(f"{base}/api/tables/{table_id}/record")
    assert got.status_code == 200, got.text
    record = got.json()
    assert len(record["actions"]) == ana.state["version"]
    assert [p["name"] for p in record["players"]] == ["Ana", "Bruno"]
    assert {a["by"] for a in record["actions"]} == {"player"}
    verify_through(site, record, receipts(ana, table_id) + receipts(bruno, table_id), tmp_path)


def test_a_person_plays_now_against_a_bot_through_nginx(site: Site, tmp_path: Path) -> None:
    """Play-now over HTTP through nginx, the websocket through nginx (the next upstream entry,
    so on two processes not the one that made the table), the bot answering, to the end."""
    http = source(loopback())
    created = http.post(f"{site.nginx.base}/api/play-now", json={"game": "heroes", "name": "Ana"})
    assert created.status_code == 201, created.text
    table_id, token = created.json()["table"]["id"], created.json()["token"]

    async def scenario() -> Client:
        client = await Client.connect(site.nginx.ws_base, table_id, token)
        try:
            await asyncio.wait_for(play_until_over(client, random.Random(7)), 240)
        finally:
            await client.close()
        return client

    client = asyncio.run(scenario())
    assert client.state is not None and client.state["view"]["outcome"] is not None
    got = http.get(f"{site.nginx.base}/api/tables/{table_id}/record")
    assert got.status_code == 200, got.text
    record = got.json()
    assert {a["by"] for a in record["actions"]} == {"player", "bot"}
    verify_through(site, record, receipts(client, table_id), tmp_path)


def test_the_limits_count_the_address_nginx_saw(site: Site) -> None:
    """nginx replaces X-Forwarded-For with the address it saw, so the create limit (4 a minute,
    shared by the processes through Redis) counts each client's own address, and a client
    naming another address in the header is still counted as itself."""
    first, second, third = loopback(), loopback(), loopback()
    url = f"{site.nginx.base}/api/tables"
    body = {"game": "heroes", "name": "A"}
    with source(first) as one, source(second) as two, source(third) as three:
        assert [one.post(url, json=body).status_code for _ in range(5)] == [201] * 4 + [429]
        forged = {"X-Forwarded-For": third}
        codes = [two.post(url, json=body, headers=forged).status_code for _ in range(5)]
        assert codes == [201] * 4 + [429]  # counted as `second`, whatever it claims
        assert three.post(url, json=body).status_code == 201  # `third` was never counted
