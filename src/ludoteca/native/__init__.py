"""The games' rules compiled with mypyc, used only while they match their sources.

The modules each game declares (``COMPILED`` in its package: what random playouts, search and
the bots spend their time in; ``declared.modules``) are compiled together into ``build/native/``
of the checkout, outside ``src``: ``make`` builds them (``python -m ludoteca.native``) and writes
``manifest.json``, the SHA-256 of every compiled source. On import, ``ludoteca`` calls
``install``: when every source the manifest names matches byte for byte, a finder placed first on
``sys.meta_path`` loads those modules from their extension files; otherwise, or with
``LUDOTECA_PURE=1``, nothing is installed and the ``.py`` files are imported as always. A stale
build (a source edited since) says so in one line on stderr and is never loaded: the compiled
modules call each other directly, so they are used all together or not at all.
Everything else (the game wiring, notation, views, bots) stays pure Python and is reached through
the ordinary Python calls, checked at run time against the types ``mypy --strict`` verified.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import sysconfig
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

GROUP = "ludoteca_native"
"""The name of the shared library the compiled modules live in (``<GROUP>__mypyc``)."""

SRC = Path(__file__).resolve().parents[2]
BUILD = SRC.parent / "build" / "native"
MANIFEST = BUILD / "manifest.json"
PURE_VARIABLE = "LUDOTECA_PURE"

status = "pure"
"""``compiled`` once ``install`` placed the finder; otherwise why not (``pure``: not built or
asked for, ``stale``: a source changed since the build, ``other python``: built for another)."""

asked_pure = False
"""True when ``LUDOTECA_PURE=1`` kept the compiled rules aside."""


def source(module: str) -> Path:
    return SRC.joinpath(*module.split(".")).with_suffix(".py")


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


class CompiledFinder(importlib.abc.MetaPathFinder):
    """Finds the compiled modules (and their shared library) among the extension files."""

    def __init__(self, files: dict[str, Path]) -> None:
        self.files = files

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        file = self.files.get(fullname)
        if file is None:
            return None
        loader = importlib.machinery.ExtensionFileLoader(fullname, str(file))
        return importlib.util.spec_from_file_location(fullname, file, loader=loader)


def examine(manifest: Path) -> tuple[str, dict[str, Path], list[str]]:
    """What a build's manifest allows: ``("compiled", its files, [])`` when it was built for this
    Python from exactly the sources there are now; else the status and the modules that changed
    (``pure`` when there is no build). Judged by the modules the manifest names: the games are
    not imported yet (a module declared since the build stays pure until ``make native``)."""
    if not manifest.exists():
        return "pure", {}, []
    try:
        content = json.loads(manifest.read_text())
        built: dict[str, str] = content["sources"]
        if content["suffix"] != sysconfig.get_config_var("EXT_SUFFIX"):
            return "other python", {}, []
        files = {name: manifest.parent / file for name, file in content["files"].items()}
        changed = [m for m in sorted(built) if built[m] != digest(source(m))]
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return "stale", {}, [manifest.name]
    if not changed and not all(file.exists() for file in files.values()):
        changed = ["the extension files"]
    return ("stale", {}, changed) if changed else ("compiled", files, [])


def install() -> str:
    """Place the finder when the build matches the sources (not with ``LUDOTECA_PURE=1``); says
    in one line on stderr when a stale build is left aside. Returns (and keeps) the status."""
    global status, asked_pure  # noqa: PLW0603 (this process's one status, set on import)
    if os.environ.get(PURE_VARIABLE, "") not in ("", "0"):
        asked_pure = True
        return status
    status, files, changed = examine(MANIFEST)
    if status == "stale":
        names = ", ".join(m.removeprefix("ludoteca.") for m in changed)
        sys.stderr.write(
            f"ludoteca: the compiled rules are out of date ({names} changed since the build); "
            "using pure Python (make native rebuilds them)\n"
        )
    if status == "compiled":
        sys.meta_path.insert(0, CompiledFinder(files))
    return status
