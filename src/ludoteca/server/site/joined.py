"""The page's modules joined into one file (docs/web.md, "Modules joined per page").

On a slow link each file is a round trip, and HTTP/1.1 fetches six at a time: the ~35 modules of a
table's page cost six round trips after the page however early they are preloaded. The server
therefore serves each page's whole static import graph (for a table, with its game's board) as
one file, built at start-up from the modules themselves, so it never goes stale, and without a
build step: each module becomes a function of a small registry (the runtime below), its
``import … from`` lines lookups in it, its exports the object the function returns,
``import.meta.url`` its own address and ``import()`` a lookup that fetches what the file lacks:
that module's static graph joined the same way (a chunk), so every module still runs once per
page, whichever file brought it. The modules stay plain ES modules in the package (served as
ever under ``/static/<version>/``); what the joining cannot express (a default export, ``export
{…}``, ``export let``, a cycle) is refused at start-up, naming the module."""

from __future__ import annotations

import hashlib
import json
import posixpath
import re
from collections.abc import Callable, Iterable

# ``import { a, b as c } from "x";``, ``import * as name from "x";``, ``import "x";``
IMPORT = re.compile(
    r'^[ \t]*import\s+(?:(\{[^}]*\})|\*\s+as\s+([\w$]+))\s+from\s+"([^"]+)";?[ \t]*$'
    r'|^[ \t]*import\s+"([^"]+)";?[ \t]*$',
    re.M,
)
EXPORT = re.compile(r"^export\s+((?:async\s+)?function\*?\s+|class\s+|const\s+)([\w$]+)", re.M)
LEFT = re.compile(r"^[ \t]*(?:import|export)\b(?!\s*\()", re.M)  # what the joining cannot express
DYNAMIC = re.compile(r"\bimport\(")
DYNAMIC_TARGET = re.compile(r'\bimport\("(\.{1,2}/[^"]+)"\)|new URL\("(\.{1,2}/[^"]+\.js)", import')

# The registry every joined file adds to (the page's file starts it): ``define`` keeps a module's
# function, ``need`` runs it once (its imports first, in their order, as ES modules do), ``load``
# (a module's import(), its address resolved as the page's import map does) fetches the chunk of a
# module no file brought yet; ``ludotecaModules.load("/static/js/x.js")`` gives the page's x.js.
RUNTIME = """const M = globalThis.ludotecaModules || (globalThis.ludotecaModules = (() => {
  const defined = new Map();
  const done = new Map();
  const aliases = Object.entries(${ALIASES});
  const address = (spec, base) => {
    const alias = aliases.find(([from]) => spec.startsWith(from));
    return alias ? alias[1] + spec.slice(alias[0].length) : new URL(spec, base).pathname;
  };
  const need = (key) => {
    if (done.has(key)) return done.get(key);
    const factory = defined.get(key);
    if (!factory) throw new Error(`no module ${key}`);
    const url = new URL(key, location.href).href;
    const exports = factory(need, { url, load: (spec) => load(address(spec, url)) });
    done.set(key, exports);
    return exports;
  };
  const load = async (key) => {
    if (!defined.has(key)) {
      try {
        await import(`${CHUNKS}${key}`);
      } catch {
        return import(key); // a page from before the server's upgrade: the module as it is
      }
    }
    return need(key);
  };
  const define = (key, factory) => {
    if (!defined.has(key)) defined.set(key, factory);
  };
  return { define, need, load: (spec) => load(address(spec, location.href)) };
})());
"""


class JoinError(ValueError):
    """A module the joining cannot express (the message names it and why)."""


def transform(key: str, source: str, resolve: Callable[[str], str]) -> tuple[str, list[str]]:
    """Module ``key`` (its address) as a registry entry, and the addresses it imports statically,
    in order. ``resolve(spec)`` gives the address an import names."""
    deps: list[str] = []

    def imported(match: re.Match[str]) -> str:
        names, star, spec, bare = match.groups()
        target = resolve(spec or bare)
        deps.append(target)
        lookup = f"__need({json.dumps(target)})"
        if bare:
            return lookup + ";"
        if star:
            return f"const {star} = {lookup};"
        pattern = re.sub(r"\s+as\s+", ": ", names)
        return f"const {pattern} = {lookup};"

    body = IMPORT.sub(imported, source)
    names = [match.group(2) for match in EXPORT.finditer(body)]
    body = EXPORT.sub(lambda match: match.group(1) + match.group(2), body)
    left = LEFT.search(body)
    if left:
        line = body.count("\n", 0, left.start()) + 1
        raise JoinError(f"{key}, line {line}: an import or export the joining cannot express")
    body = DYNAMIC.sub("__meta.load(", body).replace("import.meta", "__meta")
    exports = ", ".join(names)
    entry = (
        f"M.define({json.dumps(key)}, (__need, __meta) => {{\n{body.rstrip()}\n"
        f"return Object.freeze({{ {exports} }});\n}});\n"
    )
    return entry, deps


class Joiner:
    """The modules under their addresses, joined on demand. ``read(address)`` gives a module's
    source (None: there is none); ``aliases`` maps address prefixes as the page's import map does;
    ``chunks`` is the address prefix under which a module's chunk is served."""

    def __init__(
        self, read: Callable[[str], str | None], aliases: dict[str, str], chunks: str
    ) -> None:
        self.read = read
        self.aliases = aliases
        self.chunks = chunks
        self.entries: dict[str, tuple[str, list[str]]] = {}

    def resolve(self, key: str, spec: str) -> str:
        if spec.startswith(("./", "../")):
            return posixpath.normpath(posixpath.join(posixpath.dirname(key), spec))
        for prefix, target in self.aliases.items():
            if spec.startswith(prefix):
                return target + spec[len(prefix) :]
        return spec

    def entry(self, key: str) -> tuple[str, list[str]]:
        if key not in self.entries:
            source = self.read(key)
            if source is None:
                raise JoinError(f"{key}: no such module")
            self.entries[key] = transform(key, source, lambda spec: self.resolve(key, spec))
        return self.entries[key]

    def graph(self, roots: Iterable[str]) -> list[str]:
        """Every module ``roots`` import statically, themselves included, each after the ones it
        imports; a cycle is refused."""
        order: list[str] = []
        path: list[str] = []

        def visit(key: str) -> None:
            if key in order:
                return
            if key in path:
                raise JoinError(f"{key}: an import cycle ({' -> '.join([*path, key])})")
            path.append(key)
            for dep in self.entry(key)[1]:
                visit(dep)
            path.pop()
            order.append(key)

        for root in roots:
            visit(root)
        return order

    def joined(self, roots: list[str], run: str | None = None, without: Iterable[str] = ()) -> str:
        """One file of ``roots``' graph but the modules ``without`` (for a chunk: what every page's
        file brings), which starts the registry unless there is one already; ``run``: the module
        it runs (a page's file: a second run of it, when another page loads this file, does
        nothing), else none (a chunk, which only adds to the registry)."""
        left_out = set(without)
        parts = [self.entry(key)[0] for key in self.graph(roots) if key not in left_out]
        start = RUNTIME.replace("${CHUNKS}", self.chunks)
        start = start.replace("${ALIASES}", json.dumps(self.aliases))
        end = "" if run is None else f"M.need({json.dumps(run)});\n"
        return start + "".join(parts) + end

    def dynamic_targets(self, keys: Iterable[str]) -> list[str]:
        """The modules that ``keys`` name in ``import("./…")`` or ``new URL("./….js",
        import.meta.url)``: what may be loaded later, as chunks."""
        found: list[str] = []
        for key in keys:
            source = self.read(key) or ""
            for match in DYNAMIC_TARGET.finditer(source):
                target = self.resolve(key, match.group(1) or match.group(2))
                if target not in found:
                    found.append(target)
        return found


def digest(texts: Iterable[str]) -> str:
    """A short hash naming a set of joined files' inputs."""
    hashed = hashlib.sha256()
    for text in texts:
        hashed.update(text.encode() + b"\0")
    return hashed.hexdigest()[:12]
