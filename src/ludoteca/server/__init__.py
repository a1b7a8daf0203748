"""The table server: lobby, authoritative tables, clocks, bots, storage, websocket protocol."""
