"""docs/protocol.md and the server speak the same words: every error and close code the server
can send is documented, and the document names none the server does not have."""

from __future__ import annotations

import re
from pathlib import Path

from ludoteca.core import LudotecaError, NotYourTurnError, ReplayError, StaleVersionError
from ludoteca.core.record import RecordError
from ludoteca.server.messages import HTTP_STATUS, CloseCode, ErrorCode, Rejected, SeatKind, Status

DOC = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text()


def section(title: str) -> str:
    start = DOC.index(f"## {title}\n")
    end = DOC.find("\n## ", start + 1)
    return DOC[start : end if end > 0 else None]


def test_every_error_code_is_documented_with_its_http_status() -> None:
    rows = re.findall(r"^\| `([a-z_]+)` \| *(\d*) *\|", section("Error codes"), re.MULTILINE)
    assert {code for code, _ in rows} == {str(c) for c in ErrorCode}
    assert len(rows) == len(ErrorCode)
    for code, status in rows:
        assert HTTP_STATUS.get(ErrorCode(code)) == (int(status) if status else None), code


def test_every_close_code_is_documented() -> None:
    rows = re.findall(r"^\| (\d{4}) \|", section("Close codes"), re.MULTILINE)
    assert sorted(int(c) for c in rows) == sorted(int(c) for c in CloseCode)


def test_statuses_and_seat_kinds_are_the_documented_ones() -> None:
    *first, last = (f"`{s}`" for s in Status)
    assert f"`status` is {', '.join(first)} or {last}" in " ".join(DOC.split())
    assert f"kind: {'|'.join(str(k) for k in SeatKind)}" in DOC


def _subclasses(cls: type) -> list[type]:
    found = []
    for sub in cls.__subclasses__():
        found += [sub, *_subclasses(sub)]
    return found


def test_every_rules_error_carries_a_code_the_server_answers_with() -> None:
    assert RecordError in _subclasses(LudotecaError)
    errors = [LudotecaError, *_subclasses(LudotecaError)]
    assert len(errors) >= 9
    for error in errors:
        code = ErrorCode(error.code)  # a ValueError names an error whose code is not the server's
        exc = error(3, "why") if error is ReplayError else error("why")
        rejected = Rejected.of(exc)
        assert rejected.code is code and rejected.message == str(exc)
    assert Rejected.of(StaleVersionError("moved")).code is ErrorCode.STALE_VERSION
    assert Rejected.of(NotYourTurnError("wait")).code is ErrorCode.NOT_YOUR_TURN
