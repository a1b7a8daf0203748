"""'Your turn' notifications at turn-based tables: web push to every device that opted in and
e-mail to an account's confirmed address, sent off the table's path (docs/turn-based.md)."""
