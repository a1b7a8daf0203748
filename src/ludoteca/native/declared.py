"""What ``python -m ludoteca.native`` compiles: the modules each game declares (``COMPILED`` in its
package: names of modules inside it), found through the catalogue's discovery, and the base of
their positions, ``ludoteca.core.state`` (a compiled class can only build on a compiled class).

Apart from ``ludoteca.native`` on purpose: reading the declarations imports the games, which
``install`` must not do before its finder is in place; it judges a build by the modules its
manifest names.
"""

from __future__ import annotations

import importlib

from ludoteca.games import all_games

from . import SRC, source

BASE = ("ludoteca.core.state",)


def modules() -> tuple[str, ...]:
    """Every module to compile, sorted: ``BASE`` and each game's ``COMPILED``. TypeError when a
    declaration is not a tuple of names, ValueError when it names no module under ``SRC`` (a
    game kept elsewhere is not compiled)."""
    found = set(BASE)
    for game in all_games().values():
        declared = getattr(importlib.import_module(game.package), "COMPILED", ())
        if not isinstance(declared, tuple) or not all(isinstance(n, str) for n in declared):
            raise TypeError(f"{game.package}.COMPILED must be a tuple of module names")
        for name in declared:
            module = f"{game.package}.{name}"
            if not source(module).is_file():
                raise ValueError(f"{game.package}.COMPILED names {name}: no {source(module)}")
            found.add(module)
    return tuple(sorted(found))


def inputs() -> list[str]:
    """The files a build depends on, relative to the checkout (what ``make native`` watches):
    every compiled source and every package that declares them."""
    packages = {m.rsplit(".", 1)[0] for m in modules() if m not in BASE}
    files = [source(m) for m in modules()] + [source(f"{p}.__init__") for p in sorted(packages)]
    return [str(f.relative_to(SRC.parent)) for f in files]
