"""Friends, blocking, reports and the operator's desk (docs/accounts.md, docs/moderation.md)."""
