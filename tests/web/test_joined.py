"""The page's modules joined into one file (``server/site/joined.py``): each module's imports
become lookups in the registry, its exports what its function returns; a page's file holds the
whole static graph of its route, so a module a page newly imports comes with it; what cannot be
joined is refused at start-up, naming the module. No browser, no server (the browser tests run the
joined files: every page of tests/web is served this way)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from ludoteca.server.site.joined import Joiner, JoinError, transform
from ludoteca.server.site.pages import Page, web_root


def defined(text: str) -> set[str]:
    return set(re.findall(r'^M\.define\("([^"]+)"', text, re.M))


def same(spec: str) -> str:
    return "/m/" + spec.lstrip("./")


def test_imports_become_lookups_and_exports_what_the_function_returns() -> None:
    source = (
        'import { a, b as c } from "./x.js";\n'
        "import {\n  d,\n  e,\n} from './y.js';\n"  # single quotes: refused below, not here
        'import * as words from "./z.js";\n'
        'import "./side.js";\n'
        "export function f() { return import('./later.js'); }\n"
        "export async function g() {}\n"
        "export class K {}\n"
        "export const n = new URL('./w.json', import.meta.url);\n"
        "function hidden() {}\n"
    )
    with pytest.raises(JoinError, match=r"/m/k\.js, line 2"):
        transform("/m/k.js", source, same)
    entry, deps = transform("/m/k.js", source.replace("'./y.js'", '"./y.js"'), same)
    assert deps == ["/m/x.js", "/m/y.js", "/m/z.js", "/m/side.js"]
    assert 'const { a, b: c } = __need("/m/x.js");' in entry
    assert re.search(r'const \{\s+d,\s+e,\s+\} = __need\("/m/y.js"\);', entry)
    assert 'const words = __need("/m/z.js");' in entry
    assert '__need("/m/side.js");' in entry
    assert "return __meta.load('./later.js')" in entry
    assert "new URL('./w.json', __meta.url)" in entry
    assert "export" not in entry and "import" not in entry
    assert entry.startswith('M.define("/m/k.js", (__need, __meta) => {\n')
    assert entry.endswith("return Object.freeze({ f, g, K, n });\n});\n")


@pytest.mark.parametrize(
    "source",
    [
        "export default function f() {}\n",
        "const a = 1;\nexport { a };\n",
        "export let a = 1;\n",
        'export * from "./x.js";\n',
        'import a from "./x.js";\n',
    ],
)
def test_what_cannot_be_joined_is_refused_naming_the_module(source: str) -> None:
    with pytest.raises(JoinError, match=r"^/m/k\.js, line \d+: an import or export"):
        transform("/m/k.js", source, same)


def test_a_cycle_and_a_missing_module_are_refused() -> None:
    files = {
        "/m/a.js": 'import { b } from "./b.js";\nexport const a = 1;\n',
        "/m/b.js": 'import { a } from "./a.js";\nexport const b = 2;\n',
        "/m/c.js": 'import { z } from "./nowhere.js";\n',
    }
    joiner = Joiner(files.get, {}, "/chunks")
    with pytest.raises(JoinError, match=r"an import cycle \(/m/a.js -> /m/b.js -> /m/a.js\)"):
        joiner.joined(["/m/a.js"], "/m/a.js")
    with pytest.raises(JoinError, match=r"/m/nowhere\.js: no such module"):
        joiner.joined(["/m/c.js"])


def test_a_page_file_holds_its_graph_each_module_after_its_imports_and_runs_main() -> None:
    files = {
        "/v/js/main.js": 'import { b } from "./lib/b.js";\nimport { k } from "/static/js/k.js";\n',
        "/v/js/lib/b.js": 'import { k } from "../k.js";\nexport const b = k;\n',
        "/v/js/k.js": "export const k = 1;\n",
    }
    joiner = Joiner(files.get, {"/static/js/": "/v/js/"}, "/v/joined/1")
    text = joiner.joined(["/v/js/main.js"], "/v/js/main.js")
    keys = re.findall(r'^M\.define\("([^"]+)"', text, re.M)
    assert keys == ["/v/js/k.js", "/v/js/lib/b.js", "/v/js/main.js"]  # k once, by either name
    assert text.endswith('M.need("/v/js/main.js");\n')
    assert "await import(`/v/joined/1${key}`)" in text  # where a missing module's chunk is
    chunk = joiner.joined(["/v/js/lib/b.js"])  # a chunk starts the registry too, runs nothing
    assert chunk.startswith("const M = globalThis.ludotecaModules ||")
    assert not re.search(r"^M\.need", chunk, re.M)


def test_a_module_newly_imported_is_in_its_page_file_and_nothing_is_read_outside(
    tmp_path: Path,
) -> None:
    root = tmp_path / "web"
    shutil.copytree(web_root(), root)
    home = root / "static" / "js" / "pages" / "home.js"
    (root / "static" / "js" / "pages" / "extra.js").write_text("export const extra = 1;\n")
    home.write_text('import { extra } from "./extra.js";\n' + home.read_text())
    page = Page(root / "index.html", root / "static", list)
    (body, _) = page.bodies["home", "en"]
    (src,) = re.findall(r'<script type="module" src="([^"]+)">', body.decode())
    assert src.startswith(page.joined_root)
    text = page.joined[src.removeprefix(page.joined_root)]
    assert f'M.define("/static/{page.version}/js/pages/extra.js"' in text
    # the home page's file is its module's file: the one another page loads to move there
    assert src == f"{page.joined_root}static/{page.version}/js/pages/home.js"
    # the pages a route loads later come as chunks, kept by the app's worker
    chunk = f"{page.joined_root}static/{page.version}/js/pages/table.js"
    assert chunk in page.joined_files()
    # a chunk leaves out the shell every page's file brings (main.js and what it imports)
    js = f"/static/{page.version}/js/"
    end = defined(page.joined[page.chunk(js + "table/end.js") or ""])
    assert js + "table/end.js" in end and not end & set(page.shell)
    assert {js + "main.js", js + "dom.js", js + "i18n.js"} <= set(page.shell)
    assert page.chunk(f"/static/{page.version}/js/../../index.html") is None
    assert page.chunk(f"/static/{page.version}/js/nowhere.js") is None
