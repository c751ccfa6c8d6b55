"""pzc serve's server loop: the workbench on an address until Ctrl-C."""

from __future__ import annotations

import errno
import logging
import socket
import threading
import webbrowser

from werkzeug.serving import make_server

from ...runtime.errors import PzcError
from . import DEFAULT_PORT
from .app import Workbench
from .jobs import Jobs


def serve(host: str = "127.0.0.1", port: int = DEFAULT_PORT, open_page: bool = False,
          say=print) -> None:
    """Serve the workbench until interrupted (Ctrl-C); ``say`` is given its address."""
    logging.getLogger("werkzeug").setLevel(logging.WARNING)     # not a line per request
    listening = listen(host, port)
    jobs = Jobs()
    jobs.warm_up()                     # the fork server starts before any thread
    loopback = host in ("127.0.0.1", "localhost", "::1")
    server = make_server(host, port, Workbench(jobs, loopback=loopback), threaded=True,
                         fd=listening.fileno())
    address = f"http://{'localhost' if host == 'localhost' else host}:{server.port}/"
    if ":" in host:
        address = f"http://[{host}]:{server.port}/"
    say(f"pzc serve: the workbench is at {address}  (Ctrl-C stops it)")
    if not loopback:
        say("pzc serve: warning: listening beyond this machine: anyone who can reach "
            "this address can run jobs here (do not use on a shared network)")
    if open_page:
        threading.Timer(0.2, webbrowser.open, args=(address,)).start()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
        listening.close()
        jobs.close()


def listen(host: str, port: int) -> socket.socket:
    """The server's socket, bound here so that a port in use is a plain
    error (werkzeug's own binding exits the process)."""
    try:
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
        return socket.create_server((host, port), family=family)
    except OSError as e:
        why = e.strerror or str(e)
        if e.errno == errno.EADDRINUSE:
            why += " (another program has it: choose another port with --port, or --port 0)"
        raise PzcError(f"pzc serve cannot listen on {host} port {port}: {why}") from None
