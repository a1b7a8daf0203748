"""The websockets: a seat, a spectator or a lobby page following open tables, each with its
bounded outbox."""

from .connection import Connection, LobbyFeed

__all__ = ["Connection", "LobbyFeed"]
