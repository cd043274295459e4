"""`flamme-tui serve`: the app in a browser tab, with textual-serve.

Each browser tab that opens the page starts its own `flamme-tui` process
(the same app, saves and settings as in the terminal).  The server listens
on 127.0.0.1 unless told otherwise: anybody who can reach the port can play
(and read the saved races), so opening it to a network is a choice to make.
"""

from __future__ import annotations

import shlex
import socket
import sys

from ..usertext import clean

LOCAL = ("127.0.0.1", "localhost", "::1")


def app_command() -> str:
    """The command each browser tab runs: this Python, this flamme-tui."""
    return f"{shlex.quote(sys.executable)} -m flamme_tui"


def cannot_listen(host: str, port: int) -> str | None:
    """Why nothing can listen on host:port (an unknown name, not this
    machine's address, a port taken), tried before anything is printed;
    None if it can."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
        family, kind, proto, _, address = infos[0]
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server will
            probe.bind(address)
    except OSError as exc:
        return str(exc.strerror or exc)
    except (UnicodeError, ValueError) as exc:  # a name no resolver takes
        return f"not a host name ({type(exc).__name__})"
    return None


def serve(host: str = "127.0.0.1", port: int = 8000) -> int:
    problem = cannot_listen(host, port)
    if problem is not None:  # one line, before the server's banner says it is serving
        print(clean(f"flamme-tui: cannot serve on {host}:{port}: {problem}", multiline=False), file=sys.stderr)
        return 2
    try:
        from textual_serve.server import Server
    except ImportError:
        print("flamme-tui serve needs textual-serve: pip install textual-serve", file=sys.stderr)
        return 2
    where = "this computer only" if host in LOCAL else f"every machine that can reach {host}"
    print(clean(f"flamme-tui: serving on http://{host}:{port} ({where}); ctrl+c stops the server", multiline=False),
          flush=True)
    if host in LOCAL:
        print("flamme-tui: to let other machines in, use --host 0.0.0.0 (anyone on the network can then play)",
              flush=True)
    shown = f"[{host}]" if ":" in host else host
    server = Server(app_command(), host=host, port=port, title="Flamme Rouge",
                    public_url=f"http://{shown}:{port}")
    try:
        server.serve()
    except OSError as exc:  # the port is taken, the address is not this machine's
        print(clean(f"flamme-tui: cannot serve on {host}:{port}: {exc.strerror or exc}", multiline=False),
              file=sys.stderr)
        return 2
    return 0
