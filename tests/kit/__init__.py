"""The test kit every test folder imports (``tests/`` is on the path through tests/conftest.py):

- ``kit.env``      the repository's paths, ``IN_CI``, the services' addresses, ``missing``, and
                   ``seconds``/``milliseconds``: every deadline, stretched by
                   ``LUDOTECA_TEST_SLOWDOWN`` (or, unset, by the machine's load per core)
- ``kit.wait``     ``eventually`` / ``eventually_async``: wait for a real event, never a fixed sleep
- ``kit.processes`` every process a test starts: in a group of its own, waited for until ready or
                   exited (with its log's last lines), stopped as a group whatever happens
- ``kit.servers``  ``free_port``, ``server_settings``, ``ThreadServer``, ``ServerProcess``, ``api``
- ``kit.client``   the websocket ``Client`` and the table helpers built on it
- ``kit.tables``   in-process lobbies on a fake clock (no server, no sleep)
- ``kit.matches``  ``random_end``: a random match on the bare rules, played to its end
- ``kit.notify``   a push service that decrypts what it is sent, an SMTP server (aiosmtpd)
- ``kit.browser``  Chromium pages and playing the way a person does
- ``kit.layout``   which files outside a game's package name it (``tests/test_layout.py``)
- ``kit.slowlink`` ``SlowLink``: a loopback proxy that really delays and limits the bytes (the
                   slow link of ``tests/web/measure_web.py``, calibrated by ``bench/slowlink.py``)
- ``kit.fixtures`` the fixtures (registered by tests/conftest.py, which also marks each test
                   ``postgres``, ``redis`` or ``browser`` from the fixtures it uses)
"""
