"""What a name, a password and an e-mail address must be (each refused with a sentence saying
why: HTTP 422).

A name is compared after Unicode normalisation: NFKC, then case-folded (and NFKC again, as
case folding can undo it), so ``Ana``, ``ANA`` and ``Ａｎａ`` (full width) are one name. It is
shown as typed, after NFKC. 2 to 24 characters: letters, digits and marks of any script, and
single spaces, ``-``, ``_``, ``.`` and ``'`` between them.

A password has at least ``MIN_PASSWORD`` characters, at most ``MAX_PASSWORD``, and is not one
of the common passwords shipped with the package (``common-passwords.txt``), nor the name.

An e-mail address is checked by ``check_address`` alone, for every route that takes one: at most
254 characters; a local part of 1 to 64 printable characters (any script; no space, control or
format character, none of ``@<>"(),;:\\[]``, no dot first, last or twice); a domain of letters,
digits and hyphens in dot-separated labels, ending in a top-level domain of letters. So it is
mailable as it stands, and nothing in it can break a mail header.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from functools import cache
from importlib import resources

MIN_NAME = 2
MAX_NAME = 24
MIN_PASSWORD = 8
MAX_PASSWORD = 256
PUNCTUATION = frozenset(" -_.'")
MAX_ADDRESS = 254
DOMAIN = re.compile(r"(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,24}")
NOT_IN_LOCAL = frozenset('@<>"(),;:\\[] ')


class RuleError(ValueError):
    """A name, password or address that breaks a rule; the message says which."""


def shown_name(name: str) -> str:
    return unicodedata.normalize("NFKC", name)


def name_key(name: str) -> str:
    """The form names are unique in (NFKC, case-folded)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def check_name(name: str) -> str:
    """The name as it will be shown; RuleError saying what is wrong with it."""
    shown = shown_name(name)
    if not MIN_NAME <= len(shown) <= MAX_NAME:
        raise RuleError(f"a name has {MIN_NAME} to {MAX_NAME} characters, not {len(shown)}")
    for ch in shown:
        if ch in PUNCTUATION:
            continue
        if unicodedata.category(ch)[0] not in {"L", "N", "M"}:
            raise RuleError(
                f"a name has letters, digits, and - _ . ' or single spaces between them; not {ch!r}"
            )
    if shown[0] in PUNCTUATION or shown[-1] in PUNCTUATION:
        raise RuleError("a name starts and ends with a letter or a digit")
    if any(a in PUNCTUATION and b in PUNCTUATION for a, b in itertools.pairwise(shown)):
        raise RuleError("a name has no two spaces or signs in a row")
    return shown


@cache
def common_passwords() -> frozenset[str]:
    text = resources.files(__package__).joinpath("common-passwords.txt").read_text("utf-8")
    return frozenset(
        line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")
    )


def check_password(password: str, name: str) -> None:
    """RuleError if ``password`` is too short, too long, common, or the name itself."""
    if len(password) < MIN_PASSWORD:
        raise RuleError(f"a password has at least {MIN_PASSWORD} characters")
    if len(password) > MAX_PASSWORD:
        raise RuleError(f"a password has at most {MAX_PASSWORD} characters")
    folded = password.casefold()
    if folded in common_passwords() or len(set(folded)) < 3:
        raise RuleError("this password is one of the most common ones: choose another")
    if name_key(name) in name_key(password):
        raise RuleError("a password does not contain the name")


def check_address(address: str) -> str:
    """The e-mail address (without surrounding spaces); RuleError saying what is wrong with it."""
    address = address.strip()
    local, at, domain = address.rpartition("@")
    if len(address) > MAX_ADDRESS or not at or not 1 <= len(local) <= 64:
        raise RuleError("that is not an e-mail address (name@example.org)")
    for ch in local:
        if ch in NOT_IN_LOCAL or unicodedata.category(ch)[0] in {"C", "Z"}:
            raise RuleError(f"an e-mail address has no {ch!r} before the @")
    if local[0] == "." or local[-1] == "." or ".." in local:
        raise RuleError("an e-mail address has no dot first, last or twice before the @")
    if not DOMAIN.fullmatch(domain):
        raise RuleError("an e-mail address ends in a domain such as example.org")
    return address
