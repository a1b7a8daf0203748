"""How the server serves the client (no browser needed): every page of the site is the one HTML
page with its security headers, and every file the client refers to is there."""

from __future__ import annotations

import base64
import hashlib
import re
import urllib.request

import pytest

from kit.env import WEB, seconds
from kit.servers import ServerProcess

PAGES = ["/", "/games/heroes", "/table/no-such-table", "/verify"]


def fetch(url: str) -> tuple[dict[str, str], str]:
    with urllib.request.urlopen(url, timeout=seconds(10)) as answer:
        return dict(answer.headers), answer.read().decode(errors="replace")  # icons are PNG


@pytest.mark.parametrize("path", PAGES)
def test_every_route_is_the_page_with_its_policy(web_server: ServerProcess, path: str) -> None:
    headers, body = fetch(web_server.base + path)
    # the page's modules joined in one file (tests/web/test_joined.py)
    assert re.search(r'<script type="module" src="/static/[0-9a-f]{12}/joined/[^"]+">', body)
    policy = headers["content-security-policy"]
    assert "default-src 'self'" in policy
    # inline scripts run only as allowed by their hashes: the import map naming this static
    # version, and a table's early websocket (table/early.js)
    inline = re.findall(r"<script(?: type=\"(\w+)\")?( async)?>(.*?)</script>", body, re.S)
    early = path.startswith("/table/")
    assert [kind for kind, _, _ in inline] == ["importmap", "module"][: 1 + early]
    hashes = [hashlib.sha256(text.encode()).digest() for *_, text in inline]
    allowed = " ".join(f"'sha256-{base64.b64encode(d).decode()}'" for d in hashes)
    assert f"script-src 'self' {allowed}" in policy
    assert "unsafe-inline" not in policy
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["cache-control"] == "no-cache"


def test_every_file_the_client_names_is_served(web_server: ServerProcess) -> None:
    page = (WEB / "index.html").read_text()
    wanted = set(re.findall(r'(?:href|src)="(/static/[^"]+)"', page))
    static = WEB / "static"
    for module in static.rglob("*.js"):
        for target in re.findall(r'(?:from|import\()\s*"(\.{1,2}/[^"]+)"', module.read_text()):
            resolved = (module.parent / target).resolve().relative_to(static.resolve())
            wanted.add(f"/static/{resolved.as_posix()}")
    wanted |= {f"/static/i18n/{lang}.json" for lang in ("en", "pt", "de")}
    assert len(wanted) > 30
    for path in sorted(wanted):
        headers, _ = fetch(web_server.base + path)
        if path.endswith(".js"):
            assert "javascript" in headers["content-type"], path
