"""``python -m ludoteca.native``: compile the declared modules into ``BUILD`` (what ``make``
runs); ``--sources`` prints the files the build depends on instead (what ``make`` watches);
``--background COMMAND...`` starts COMMAND (``make native``) detached, what ``make run`` does
before serving (``ludoteca.native.background``)."""

from __future__ import annotations

import json
import os
import shutil
import sys
import sysconfig
from pathlib import Path

from . import BUILD, GROUP, MANIFEST, SRC, background, digest, examine, source
from .declared import inputs, modules


def build() -> None:
    """Compile the declared modules into ``BUILD`` and write the manifest (raises when it
    cannot)."""
    from mypyc.build import mypycify  # noqa: PLC0415 (only the build needs mypy)
    from setuptools import setup  # type: ignore[import-untyped]  # noqa: PLC0415

    compiler = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        raise RuntimeError(f"no C compiler: {compiler} not found")
    compiled = modules()
    sources = {m: digest(source(m)) for m in compiled}  # what is compiled, read before compiling
    MANIFEST.unlink(missing_ok=True)
    fresh, lib = BUILD / "lib.new", BUILD / "lib"
    shutil.rmtree(fresh, ignore_errors=True)
    os.environ["MYPY_CACHE_DIR"] = str(BUILD / "mypy-cache")
    os.chdir(SRC)
    paths = [str(source(m).relative_to(SRC)) for m in compiled]
    extensions = mypycify(paths, opt_level="3", group_name=GROUP, target_dir=str(BUILD / "c"))
    setup(
        name="ludoteca-native",
        ext_modules=extensions,
        script_args=[
            "--quiet",
            "build_ext",
            "--build-lib",
            str(fresh),
            "--build-temp",
            str(BUILD / "objects"),
            "--parallel",
            str(os.cpu_count() or 1),
        ],
    )
    # a running process keeps its loaded files: the old tree is unlinked, never overwritten
    shutil.rmtree(lib, ignore_errors=True)
    fresh.rename(lib)
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    names = [*compiled, f"{GROUP}__mypyc"]
    files = {n: str(Path("lib", *n.split("."))) + suffix for n in names}
    manifest = {"suffix": suffix, "sources": sources, "files": files}
    written = MANIFEST.with_suffix(".new")
    written.write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    written.rename(MANIFEST)


def main() -> int:
    """``python -m ludoteca.native``: build (the compiler's output goes to ``build.log``), or say
    in one line why the rules stay pure Python; with ``--sources``, print the build's inputs one
    a line."""
    if sys.argv[1:] == ["--sources"]:
        print("\n".join(inputs()))
        return 0
    if sys.argv[1:2] == ["--background"] and sys.argv[2:]:
        try:
            pid = background.start(sys.argv[2:], os.environ)
        except OSError as error:  # the server starts all the same, on the pure rules
            print(f"could not start compiling the rules ({error}): using pure Python")
            return 0
        print(f"compiling the rules in the background (process {pid}, {background.LOG})")
        return 0
    if sys.argv[1:]:
        usage = "usage: python -m ludoteca.native [--sources | --background COMMAND...]"
        print(usage, file=sys.stderr)
        return 2
    with background.exclusive() as waited:
        if waited and current():
            print(f"the rules were compiled meanwhile into {BUILD}")
            return 0
        return compile_logged()


def current() -> bool:
    """Whether ``BUILD`` holds every declared module, compiled from the sources there are now."""
    state, files, _ = examine(MANIFEST)
    return state == "compiled" and set(files) >= set(modules())


def compile_logged() -> int:
    """``build`` with the compiler's output in ``build.log``; 0 when done, else 1 and one line."""
    BUILD.mkdir(parents=True, exist_ok=True)
    log = BUILD / "build.log"
    saved = os.dup(1), os.dup(2)
    try:
        with log.open("w") as out:
            os.dup2(out.fileno(), 1)
            os.dup2(out.fileno(), 2)
            try:
                build()
            finally:
                sys.stdout.flush()
                sys.stderr.flush()
                os.dup2(saved[0], 1)
                os.dup2(saved[1], 2)
    except (Exception, SystemExit) as error:  # no compiler, no mypy: pure Python goes on
        reason = str(error).strip().splitlines()[-1:] or [type(error).__name__]
        print(f"compiling the rules failed ({reason[0]}; see {log}): using pure Python")
        return 1
    print(f"compiled the rules into {BUILD}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
