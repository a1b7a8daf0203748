"""Accounts, sessions, passkeys, ratings and the history of the people who sign in."""
