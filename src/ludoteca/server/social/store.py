"""What the server keeps about people's ties, in the tables of revision 0015 (SQLAlchemy Core):
follows, blocks, the privacy setting, presence and table invitations. The reports, operators,
sanctions and audit log are ``desk_store``'s. Every method blocks: ``run`` calls them on the
account store's thread pool."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import and_, delete, func, insert, or_, select, update
from sqlalchemy.engine import Engine

from ludoteca.server.storage.schema import (
    accounts,
    blocks,
    follows,
    friend_invites,
    presence,
    social_settings,
)


class SocialStore:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    # ------------------------------------------------------------------------ follows
    def follow(self, follower: str, followed: str, now: float) -> bool:
        """False if it was already so."""
        with self.engine.begin() as conn:
            key = and_(follows.c.follower_id == follower, follows.c.followed_id == followed)
            if conn.execute(select(follows.c.at).where(key)).first() is not None:
                return False
            conn.execute(insert(follows).values(follower_id=follower, followed_id=followed, at=now))
        return True

    def unfollow(self, follower: str, followed: str) -> bool:
        with self.engine.begin() as conn:
            gone = conn.execute(
                delete(follows).where(
                    follows.c.follower_id == follower, follows.c.followed_id == followed
                )
            )
        return gone.rowcount > 0

    def following(self, account_id: str) -> list[tuple[str, str]]:
        """(id, name) of those the account follows, by name."""
        query = (
            select(accounts.c.id, accounts.c.name)
            .join(follows, follows.c.followed_id == accounts.c.id)
            .where(follows.c.follower_id == account_id)
            .order_by(accounts.c.name_key)
        )
        with self.engine.connect() as conn:
            return [(r.id, r.name) for r in conn.execute(query)]

    def followers(self, account_id: str) -> list[tuple[str, str]]:
        query = (
            select(accounts.c.id, accounts.c.name)
            .join(follows, follows.c.follower_id == accounts.c.id)
            .where(follows.c.followed_id == account_id)
            .order_by(accounts.c.name_key)
        )
        with self.engine.connect() as conn:
            return [(r.id, r.name) for r in conn.execute(query)]

    # ------------------------------------------------------------------------- blocks
    def block(self, blocker: str, blocked: str, now: float) -> bool:
        """Block, and end a follow either way between the two. False if it was already so."""
        with self.engine.begin() as conn:
            conn.execute(
                delete(follows).where(
                    or_(
                        and_(follows.c.follower_id == blocked, follows.c.followed_id == blocker),
                        and_(follows.c.follower_id == blocker, follows.c.followed_id == blocked),
                    )
                )
            )
            key = and_(blocks.c.blocker_id == blocker, blocks.c.blocked_id == blocked)
            if conn.execute(select(blocks.c.at).where(key)).first() is not None:
                return False
            conn.execute(insert(blocks).values(blocker_id=blocker, blocked_id=blocked, at=now))
        return True

    def unblock(self, blocker: str, blocked: str) -> bool:
        with self.engine.begin() as conn:
            gone = conn.execute(
                delete(blocks).where(blocks.c.blocker_id == blocker, blocks.c.blocked_id == blocked)
            )
        return gone.rowcount > 0

    def blocked_list(self, account_id: str) -> list[tuple[str, str]]:
        query = (
            select(accounts.c.id, accounts.c.name)
            .join(blocks, blocks.c.blocked_id == accounts.c.id)
            .where(blocks.c.blocker_id == account_id)
            .order_by(accounts.c.name_key)
        )
        with self.engine.connect() as conn:
            return [(r.id, r.name) for r in conn.execute(query)]

    def blocked_by(self, reader: str) -> set[str]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(blocks.c.blocked_id).where(blocks.c.blocker_id == reader))
            return {r.blocked_id for r in rows}

    def blocks_either_way(self, reader: str) -> set[str]:
        """The accounts ``reader`` blocked and those that blocked ``reader``."""
        either = or_(blocks.c.blocker_id == reader, blocks.c.blocked_id == reader)
        with self.engine.connect() as conn:
            rows = conn.execute(select(blocks.c.blocker_id, blocks.c.blocked_id).where(either))
            return {r.blocked_id if r.blocker_id == reader else r.blocker_id for r in rows}

    def blocked_pairs(self, accounts: Iterable[str]) -> list[tuple[str, str]]:
        """Each (blocker, blocked) with both among ``accounts``."""
        wanted = list(accounts)
        both = and_(blocks.c.blocker_id.in_(wanted), blocks.c.blocked_id.in_(wanted))
        with self.engine.connect() as conn:
            rows = conn.execute(select(blocks.c.blocker_id, blocks.c.blocked_id).where(both))
            return [(r.blocker_id, r.blocked_id) for r in rows]

    def blocks_among(self, one: str, others: Iterable[str]) -> bool:
        """Whether ``one`` and any of ``others`` blocked each other (either way)."""
        others = [o for o in others if o != one]
        if not others:
            return False
        either = or_(
            and_(blocks.c.blocker_id == one, blocks.c.blocked_id.in_(others)),
            and_(blocks.c.blocked_id == one, blocks.c.blocker_id.in_(others)),
        )
        with self.engine.connect() as conn:
            return conn.execute(select(blocks.c.at).where(either).limit(1)).first() is not None

    # ----------------------------------------------------------------------- privacy
    def hides_online(self, account_ids: Iterable[str]) -> set[str]:
        wanted = list(account_ids)
        if not wanted:
            return set()
        query = select(social_settings.c.account_id).where(
            social_settings.c.account_id.in_(wanted), social_settings.c.hide_online.is_(True)
        )
        with self.engine.connect() as conn:
            return {r.account_id for r in conn.execute(query)}

    def set_hide_online(self, account_id: str, hide: bool) -> None:
        with self.engine.begin() as conn:
            key = social_settings.c.account_id == account_id
            changed = conn.execute(update(social_settings).where(key).values(hide_online=hide))
            if changed.rowcount == 0:
                conn.execute(
                    insert(social_settings).values(account_id=account_id, hide_online=hide)
                )

    # ---------------------------------------------------------------------- presence
    def present(self, process: str, counts: dict[str, int], now: float) -> None:
        """This process's live websockets per account (an account at 0 is forgotten)."""
        with self.engine.begin() as conn:
            for account_id, count in counts.items():
                key = and_(presence.c.account_id == account_id, presence.c.process == process)
                if count <= 0:
                    conn.execute(delete(presence).where(key))
                    continue
                values = {"connections": count, "seen_at": now}
                if conn.execute(update(presence).where(key).values(**values)).rowcount == 0:
                    conn.execute(
                        insert(presence).values(account_id=account_id, process=process, **values)
                    )

    def online(self, account_ids: Iterable[str], since: float) -> set[str]:
        """Of these accounts, those with a websocket open on a process seen since ``since``."""
        wanted = list(account_ids)
        if not wanted:
            return set()
        query = select(presence.c.account_id).where(
            presence.c.account_id.in_(wanted), presence.c.seen_at >= since
        )
        with self.engine.connect() as conn:
            return {r.account_id for r in conn.execute(query)}

    def forget_presence(self, before: float) -> None:
        with self.engine.begin() as conn:
            conn.execute(delete(presence).where(presence.c.seen_at < before))

    # ----------------------------------------------------------------------- invites
    def invite(self, sender: str, to: str, table_id: str, now: float) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                insert(friend_invites).values(from_id=sender, to_id=to, table_id=table_id, at=now)
            )

    def invites_sent_since(self, sender: str, since: float) -> int:
        query = select(func.count()).where(
            friend_invites.c.from_id == sender, friend_invites.c.at >= since
        )
        with self.engine.connect() as conn:
            return int(conn.execute(query).scalar_one())

    def last_invite(self) -> int:
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.max(friend_invites.c.id))).scalar() or 0)

    def invites_after(self, account_ids: Iterable[str], after: int) -> list[dict[str, Any]]:
        """The invites to these accounts past the id ``after`` (each process keeps its own
        cursor, so a person connected to two processes hears on both), oldest first."""
        wanted = list(account_ids)
        if not wanted:
            return []
        query = (
            select(friend_invites, accounts.c.name)
            .join(accounts, accounts.c.id == friend_invites.c.from_id)
            .where(friend_invites.c.to_id.in_(wanted), friend_invites.c.id > after)
            .order_by(friend_invites.c.id)
        )
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
        return [
            {"id": r.id, "to": r.to_id, "from": r.name, "table": r.table_id, "at": r.at}
            for r in rows
        ]

    def forget_invites(self, before: float) -> None:
        with self.engine.begin() as conn:
            conn.execute(delete(friend_invites).where(friend_invites.c.at < before))
