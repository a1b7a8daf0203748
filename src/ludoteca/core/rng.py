"""The seeded random stream of a match: SHA-256 in counter mode, specified for re-implementation.

Construction (also in ``docs/fairness.md``):

* The seed is a text string; ``S`` is its UTF-8 encoding.
* Block ``b`` (b = 0, 1, 2, ...) is ``SHA-256(S || ":" || decimal(b))``, e.g. the block 0 of seed
  ``abc`` is ``sha256(b"abc:0")``.
* Each block yields eight 32-bit words: bytes 0-3, 4-7, ..., 28-31, each read big-endian.
  Word ``k`` of the stream is word ``k mod 8`` of block ``k div 8``.
* ``below(n)`` (uniform in ``0..n-1``, 1 <= n <= 2**32): let ``limit = 2**32 - (2**32 mod n)``;
  take the next word ``w`` until ``w < limit``; return ``w mod n``. It always takes at least a word.
* ``shuffle(list)``: Fisher-Yates from the end: for ``i`` from ``len-1`` down to ``1``:
  ``j = below(i + 1)``, swap items ``i`` and ``j``.
* ``choice(list)`` is ``list[below(len(list))]``.

The stream's whole state is the seed and the number of words taken, so it serialises to JSON and a
match can be stored and resumed mid-way. Nothing here reads the clock or the ``random`` module.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import MutableSequence
from typing import Any, TypeVar

from .errors import InvalidPositionError

T = TypeVar("T")

_WORD_SPACE = 1 << 32
_BLOCK_WORDS = struct.Struct(">8I").unpack
_SMALL = 256
_LIMITS = {n: _WORD_SPACE - (_WORD_SPACE % n) for n in range(1, _SMALL + 1)}
"""``below(n)``'s rejection limit for the small ``n`` the games draw from."""
_SAFE = _WORD_SPACE - _SMALL
"""Below every limit of an ``n`` up to ``_SMALL``: a word under it is never rejected."""


class Stream:
    """A deterministic random stream; same seed and same calls give the same numbers everywhere.

    The words of the current block are kept unpacked (``_words``, block ``_block_index``), so a
    draw hashes once per eight words and reads the rest from a tuple; clones share that tuple."""

    __slots__ = ("_block_index", "_prefix", "_words", "seed", "used")

    def __init__(self, seed: str, used: int = 0) -> None:
        if not isinstance(seed, str):
            raise TypeError("the seed is a text string")
        if used < 0:
            raise ValueError("words used cannot be negative")
        self.seed = seed
        self.used = used
        self._block_index = -1
        self._words: tuple[int, ...] = ()
        self._prefix: Any = None  # SHA-256 fed with "<seed>:", copied for every block

    def _load(self, index: int) -> tuple[int, ...]:
        """Make block ``index`` the current one (what ``block`` computes, from a hash state that
        has already taken the seed); returns its words."""
        prefix = self._prefix
        if prefix is None:
            prefix = self._prefix = hashlib.sha256(f"{self.seed}:".encode())
        hasher = prefix.copy()
        hasher.update(b"%d" % index)
        self._block_index = index
        self._words = words = _BLOCK_WORDS(hasher.digest())
        return words

    def word(self) -> int:
        """The next 32-bit word of the stream."""
        used = self.used
        words = self._words if used >> 3 == self._block_index else self._load(used >> 3)
        self.used = used + 1
        return words[used & 7]

    def below(self, n: int) -> int:
        """A uniform integer in ``0..n-1`` (rejection sampling, no modulo bias)."""
        used = self.used
        words = self._words if used >> 3 == self._block_index else self._load(used >> 3)
        w = words[used & 7]
        if w < _SAFE and 0 < n <= _SMALL:  # no such n rejects this word: the usual case
            self.used = used + 1
            return w % n
        limit = _LIMITS.get(n)
        if limit is None:
            if not 1 <= n <= _WORD_SPACE:
                raise ValueError(f"below() needs 1 <= n <= 2**32, got {n}")
            limit = _WORD_SPACE - (_WORD_SPACE % n)
        while True:
            words = self._words if used >> 3 == self._block_index else self._load(used >> 3)
            w = words[used & 7]
            used += 1
            self.used = used
            if w < limit:
                return w % n

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Shuffle in place (Fisher-Yates from the end, see the module docstring).

        The draws are ``below(i + 1)``'s, written out here: a set-up shuffles dozens of items,
        and a word under ``_SAFE`` is never rejected by an ``n`` up to ``_SMALL``."""
        index, words, used = self._block_index, self._words, self.used
        load = self._load
        for i in range(len(items) - 1, 0, -1):
            if used >> 3 != index:
                index = used >> 3
                words = load(index)
            w = words[used & 7]
            used += 1
            n = i + 1
            if w >= _SAFE or n > _SMALL:  # rare: the full rejection test
                limit = _LIMITS.get(n) or _WORD_SPACE - (_WORD_SPACE % n)
                while w >= limit:
                    if used >> 3 != index:
                        index = used >> 3
                        words = load(index)
                    w = words[used & 7]
                    used += 1
            j = w % n
            items[i], items[j] = items[j], items[i]
        self.used = used

    def clone(self) -> Stream:
        copy = Stream.__new__(Stream)
        copy.seed = self.seed
        copy.used = self.used
        copy._block_index = self._block_index
        copy._words = self._words
        copy._prefix = self._prefix
        return copy

    def to_json(self) -> dict[str, Any]:
        return {"seed": self.seed, "used": self.used}

    @classmethod
    def from_json(cls, data: Any) -> Stream:
        if not isinstance(data, dict):
            raise InvalidPositionError("rng must be an object {seed, used}")
        seed, used = data.get("seed"), data.get("used", 0)
        if not isinstance(seed, str):
            raise InvalidPositionError("rng.seed must be a string")
        if not isinstance(used, int) or isinstance(used, bool) or used < 0:
            raise InvalidPositionError("rng.used must be a whole number >= 0")
        return cls(seed, used)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Stream) and (self.seed, self.used) == (other.seed, other.used)

    def __hash__(self) -> int:
        return hash((self.seed, self.used))

    def __repr__(self) -> str:
        return f"Stream(used={self.used})"  # never print the seed by accident
