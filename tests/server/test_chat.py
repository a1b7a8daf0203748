"""The table chat's logic, in-process (docs/protocol.md#chat): what may be said, who reads which
room, storing before anyone hears of it, the rate, the readers' filters, hiding a message and the
messages around one; and its store against the memory, SQLite and PostgreSQL stores."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from ludoteca.server.chat import (
    MAX_TEXT,
    PHRASES,
    Chat,
    ChatRow,
    DeskChat,
    MemoryChatStore,
    SqlChatStore,
    WithChat,
    check,
    hide_message,
    messages_around,
    reads,
)
from ludoteca.server.cluster.base import Notice
from ludoteca.server.messages import ErrorCode, Rejected, TooMany
from ludoteca.server.storage import SqlStorage, open_storage


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Wire:
    """A cluster that keeps what it publishes (``shared``: another process listens)."""

    shared = True
    name = "here"

    def __init__(self) -> None:
        self.sent: list[Notice] = []

    async def publish(self, notice: Notice) -> None:
        self.sent.append(Notice.decode(notice.encode()))  # as it travels


class Person:
    def __init__(self, seat: int | None, over: bool = False) -> None:
        self.seat = seat
        self.over = over
        self.got: list[dict[str, Any]] = []

    def match_over(self) -> bool:
        return self.over

    def deliver(self, message: dict[str, Any]) -> None:
        self.got.append(message)

    def said(self) -> list[str | None]:
        return [
            m["message"]["phrase"] or m["message"]["text"] for m in self.got if m["type"] == "chat"
        ]


class Rate:
    def __init__(self, allowed: int) -> None:
        self.allowed = allowed
        self.keys: list[str] = []

    async def __call__(self, key: str) -> float | None:
        self.keys.append(key)
        return None if self.keys.count(key) <= self.allowed else 30.0


def make(store: Any = None, allowed: int = 100, hook: Any = None) -> tuple[Chat, Wire, Rate, Clock]:
    wire, rate, clock = Wire(), Rate(allowed), Clock()
    kwargs = {"hook": hook} if hook else {}
    chat = Chat(store or MemoryChatStore(), wire, rate, clock, **kwargs)  # type: ignore[arg-type]
    return chat, wire, rate, clock


def run(coro: Any) -> Any:
    return asyncio.run(coro)


# ------------------------------------------------------------------------ what may be said
def test_a_phrase_is_one_of_the_eight_ids_and_text_needs_the_table_and_a_session() -> None:
    assert PHRASES == ("gg", "wp", "your_turn", "thinking", "brb", "oops", "thanks", "gl")
    assert check("gg", None, signed_in=False, text_allowed=False) == ("gg", None)
    refusals: list[tuple[object, object, bool, bool, ErrorCode]] = [
        ("hello", None, True, True, ErrorCode.BAD_CHAT),
        (None, None, True, True, ErrorCode.BAD_CHAT),
        ("gg", "hi", True, True, ErrorCode.BAD_CHAT),
        (3, None, True, True, ErrorCode.BAD_CHAT),
        (None, "hi", True, False, ErrorCode.CHAT_PHRASES_ONLY),
        (None, "hi", False, True, ErrorCode.NOT_SIGNED_IN),
        (None, "   ", True, True, ErrorCode.BAD_CHAT),
        (None, "x" * (MAX_TEXT + 1), True, True, ErrorCode.BAD_CHAT),
        (None, "two\nlines", True, True, ErrorCode.BAD_CHAT),
        (None, "evil\u202etxt", True, True, ErrorCode.BAD_CHAT),
        (None, ["a"], True, True, ErrorCode.BAD_CHAT),
    ]
    for phrase, text, signed_in, allowed, code in refusals:
        with pytest.raises(Rejected) as refused:
            check(phrase, text, signed_in=signed_in, text_allowed=allowed)
        assert refused.value.code == code, (phrase, text)
    assert check(None, "  <b>hi</b> ", signed_in=True, text_allowed=True) == (None, "<b>hi</b>")
    assert check(None, "x" * MAX_TEXT, signed_in=True, text_allowed=True)[1] == "x" * MAX_TEXT
    family = "\U0001f469\u200d\U0001f467"
    assert check(None, family, signed_in=True, text_allowed=True) == (None, family)


def test_spectators_never_read_the_seats_and_the_seated_read_spectators_only_at_the_end() -> None:
    assert reads("seats", 0, over=False) and reads("seats", 1, over=True)
    assert not reads("seats", None, over=False) and not reads("seats", None, over=True)
    assert reads("spectators", None, over=False)
    assert not reads("spectators", 0, over=False)
    assert reads("spectators", 0, over=True)


# ------------------------------------------------------------------------ saying and hearing
def test_a_message_is_stored_then_shown_to_its_room_and_announced() -> None:
    async def go() -> None:
        chat, wire, _rate, _clock = make()
        ana, bruno, watcher = Person(0), Person(1), Person(None)
        for reader in (ana, bruno, watcher):
            first = await chat.join("T1", reader, None)
            assert first == {"type": "chat_history", "text": False, "messages": []}
        row = await chat.say("T1", seat=0, name="Ana", account=None, rate_key="s0", phrase="gl")
        assert row.id == 1 and row.room == "seats"
        assert ana.said() == bruno.said() == ["gl"] and watcher.said() == []
        said = await chat.say("T1", seat=None, name="", account=None, rate_key="c", phrase="wp")
        assert said.room == "spectators"
        assert watcher.said() == ["wp"] and ana.said() == ["gl"], "no coaching from the rail"
        assert [n.kind for n in wire.sent] == ["chat", "chat"]
        assert wire.sent[0].chat == {"message": row.public(), "account": None}
        assert [r.id for r in await chat.store.recent("T1", ["seats", "spectators"], 10)] == [1, 2]

    run(go())


def test_another_process_s_message_reaches_the_readers_here_by_its_room() -> None:
    async def go() -> None:
        there, wire, _rate, _clock = make()
        here, _wire, _rate2, _clock2 = make(store=there.store)
        seated, watcher = Person(1), Person(None)
        await here.join("T1", seated, None)
        await here.join("T1", watcher, None)
        await there.say("T1", seat=0, name="Ana", account=None, rate_key="a", phrase="oops")
        await there.say("T1", seat=None, name="Eva", account="acc", rate_key="e", phrase="gl")
        handler = WithChat(None, here)  # type: ignore[arg-type]  # only chat notices here
        for notice in wire.sent:
            await handler.notice(notice)
        assert seated.said() == ["oops"] and watcher.said() == ["gl"]
        await handler.notice(Notice("T9", "chat", "p", 0, "", chat=wire.sent[0].chat))
        assert seated.said() == ["oops"], "a table nobody reads here is passed over"

    run(go())


def test_free_text_only_where_the_host_allowed_it_and_only_signed_in() -> None:
    async def go() -> None:
        chat, _wire, _rate, _clock = make()
        reader = Person(0)
        await chat.join("T1", reader, "acc")
        with pytest.raises(Rejected) as refused:
            await chat.say("T1", seat=0, name="Ana", account="acc", rate_key="a", text="hi")
        assert refused.value.code == ErrorCode.CHAT_PHRASES_ONLY
        await chat.configure("T2", text=True)
        await chat.join("T2", reader, "acc")
        with pytest.raises(Rejected) as refused:
            await chat.say("T2", seat=0, name="Ana", account=None, rate_key="g", text="hi")
        assert refused.value.code == ErrorCode.NOT_SIGNED_IN
        xss = "<img src=x onerror=alert(1)>"
        row = await chat.say("T2", seat=0, name="Ana", account="acc", rate_key="a", text=xss)
        assert row.text == xss and reader.said() == [xss]
        assert (await chat.history_for("T2", 0, False))["text"] is True
        assert await chat.store.recent("T1", ["seats"], 10) == [], "nothing refused is stored"

    run(go())


def test_a_sender_over_the_rate_is_told_to_wait_and_nothing_is_stored() -> None:
    async def go() -> None:
        chat, _wire, rate, _clock = make(allowed=2)
        reader = Person(0)
        await chat.join("T1", reader, None)
        for _ in range(2):
            await chat.say("T1", seat=0, name="A", account=None, rate_key="seat:T1:0", phrase="gg")
        with pytest.raises(TooMany) as refused:
            await chat.say("T1", seat=0, name="A", account=None, rate_key="seat:T1:0", phrase="gg")
        assert refused.value.code == ErrorCode.RATE_LIMITED and refused.value.retry_after == 30
        await chat.say("T1", seat=1, name="B", account=None, rate_key="seat:T1:1", phrase="gg")
        assert len(await chat.store.recent("T1", ["seats"], 10)) == 3
        assert rate.keys.count("seat:T1:0") == 3

    run(go())


def test_a_message_that_cannot_be_stored_is_refused_and_nobody_hears_it() -> None:
    class Broken(MemoryChatStore):
        async def add(self, row: ChatRow) -> ChatRow:
            raise OSError("the database is gone")

    async def go() -> None:
        chat, wire, _rate, _clock = make(store=Broken())
        reader = Person(1)
        await chat.join("T1", reader, None)
        with pytest.raises(Rejected) as refused:
            await chat.say("T1", seat=0, name="A", account=None, rate_key="a", phrase="gg")
        assert refused.value.code == ErrorCode.SERVER_BUSY
        assert reader.got == [] and wire.sent == []

    run(go())


def test_a_reader_s_filter_from_its_account_hides_whom_it_drops() -> None:
    made: list[str | None] = []

    async def hook(account: str | None) -> Callable[[ChatRow], bool]:
        made.append(account)
        return lambda row: row.account_id != "pest" if account == "ana" else True

    async def go() -> None:
        chat, _wire, _rate, _clock = make(hook=hook)
        ana, bruno = Person(0), Person(1)
        await chat.join("T1", ana, "ana")
        await chat.join("T1", bruno, None)
        await chat.say("T1", seat=1, name="P", account="pest", rate_key="p", phrase="oops")
        await chat.say("T1", seat=1, name="P", account="fine", rate_key="f", phrase="gg")
        assert ana.said() == ["gg"] and bruno.said() == ["oops", "gg"]
        again = await chat.join("T1", Person(0), "ana")
        assert [m["phrase"] for m in again["messages"]] == ["gg"], "the history is filtered too"
        assert made == ["ana", None, "ana"]

    run(go())


def test_a_hidden_message_stays_stored_leaves_the_screens_and_the_history() -> None:
    async def go() -> None:
        chat, wire, _rate, _clock = make()
        reader = Person(0)
        await chat.join("T1", reader, None)
        await chat.join("T2", Person(0), None)
        ids = []
        for i, phrase in enumerate(["gl", "gg", "oops", "wp", "thanks"]):
            table = "T2" if i == 2 else "T1"
            row = await chat.say(
                table, seat=0, name="A", account=None, rate_key=str(i), phrase=phrase
            )
            ids.append(row.id)
        hidden = await hide_message(chat, ids[1])
        assert hidden is not None and hidden.hidden and hidden.phrase == "gg"
        assert reader.got[-1] == {"type": "chat_hidden", "id": ids[1]}
        assert wire.sent[-1].chat == {"hidden": ids[1]}
        history = (await chat.history_for("T1", 0, False))["messages"]
        assert [m["phrase"] for m in history] == ["gl", "wp", "thanks"]
        around = await messages_around(chat, ids[1], before=1, after=1)
        assert [(r.phrase, r.hidden) for r in around] == [
            ("gl", False),
            ("gg", True),
            ("wp", False),
        ]
        assert await hide_message(chat, 999) is None
        assert await messages_around(chat, 999) == []

    run(go())


def test_the_desk_reads_and_hides_a_message_only_by_its_own_table() -> None:
    async def go() -> None:
        chat, _wire, _rate, _clock = make()
        await chat.configure("T1", True)
        said = [
            await chat.say("T1", seat=0, name="Ana", account="a", rate_key="a", phrase="gl"),
            await chat.say("T1", seat=1, name="Bia", account="b", rate_key="b", text="hi there"),
            await chat.say("T2", seat=0, name="Cai", account="c", rate_key="c", phrase="gg"),
        ]
        desk = DeskChat(chat)
        context = await desk.around("T1", str(said[1].id))
        assert context is not None
        assert [(m["author"], m["text"]) for m in context] == [("Ana", "[gl]"), ("Bia", "hi there")]
        assert context[1]["id"] == str(said[1].id)
        # a report names its table: a message of another table, or no number, is not found
        for table, message in (("T2", str(said[1].id)), ("T1", "x1"), ("T1", "9" * 30)):
            assert await desk.around(table, message) is None
            assert await desk.hide(table, message) is False
        assert await desk.hide("T1", str(said[1].id)) is True
        history = (await chat.history_for("T1", 0, False))["messages"]
        assert [m["name"] for m in history] == ["Ana"]

    run(go())


def test_a_muted_account_says_nothing_and_nothing_is_stored() -> None:
    async def go() -> None:
        muted = {"b"}

        async def allowed(account: str) -> bool:
            return account not in muted

        chat = Chat(MemoryChatStore(), Wire(), Rate(100), Clock(), allowed=allowed)  # type: ignore[arg-type]
        with pytest.raises(Rejected) as refused:
            await chat.say("T1", seat=1, name="Bia", account="b", rate_key="b", phrase="gg")
        assert refused.value.code == ErrorCode.MUTED
        await chat.say("T1", seat=0, name="Ana", account="a", rate_key="a", phrase="gl")
        history = (await chat.history_for("T1", 0, False))["messages"]
        assert [m["phrase"] for m in history] == ["gl"]

    run(go())


# ------------------------------------------------------------------------ the stores
def test_the_chat_store_keeps_the_same_contract_in_every_store(store_url: str) -> None:
    async def go() -> None:
        storage = open_storage(store_url)
        store = (
            SqlChatStore(storage.engine) if isinstance(storage, SqlStorage) else MemoryChatStore()
        )
        try:
            assert await store.text_allowed("T1") is False
            await store.set_text("T1", True)
            await store.set_text("T1", True)
            assert await store.text_allowed("T1") is True
            rows = []
            for i in range(6):
                room = "spectators" if i == 3 else "seats"
                seat = None if i == 3 else i % 2
                table = "T2" if i == 4 else "T1"
                row = ChatRow(
                    0, table, room, seat, "acc" if i else None, f"N{i}", None, f"m{i}", 5.0 + i
                )
                rows.append(await store.add(row))
            assert [r.id for r in rows] == sorted({r.id for r in rows}), "ids rise, each once"
            assert rows[0].account_id is None and rows[1].account_id == "acc"
            recent = await store.recent("T1", ["seats"], 2)
            assert [r.text for r in recent] == ["m2", "m5"]
            assert [r.text for r in await store.recent("T1", ["spectators", "seats"], 9)] == [
                "m0",
                "m1",
                "m2",
                "m3",
                "m5",
            ]
            assert await store.hide(rows[2].id, True) and not await store.hide(10_000, True)
            assert [r.text for r in await store.recent("T1", ["seats"], 9)] == ["m0", "m1", "m5"]
            found = await store.get(rows[2].id)
            assert found is not None and found.hidden and found.text == "m2"
            around = await store.around(rows[2].id, 2, 2)
            assert [r.text for r in around] == ["m0", "m1", "m2", "m3", "m5"]
            assert [r.text for r in await store.around(rows[0].id, 5, 0)] == ["m0"]
        finally:
            store.close()
            await storage.close()

    run(go())


def test_a_history_that_cannot_be_read_is_empty_and_the_reader_still_hears() -> None:
    class Unreadable(MemoryChatStore):
        async def recent(self, table_id: str, rooms: Any, limit: int) -> list[ChatRow]:
            raise OSError("the database is gone")

    async def go() -> None:
        chat, _wire, _rate, _clock = make(store=Unreadable())
        reader = Person(1)
        first = await chat.join("T1", reader, None)
        assert first == {"type": "chat_history", "text": False, "messages": [], "unavailable": True}
        await chat.say("T1", seat=0, name="A", account=None, rate_key="a", phrase="gg")
        assert reader.said() == ["gg"]

    run(go())
