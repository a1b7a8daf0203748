"""Our games in research frameworks: OpenSpiel (``interop.openspiel``) and PettingZoo
(``interop.pettingzoo``). Needs the ``research`` extra; nothing outside this package imports it.
See ``docs/research.md``."""
