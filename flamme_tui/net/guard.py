"""What a server checks before it takes a connection: the Origin and Host of
a WebSocket, and how fast one peer may send.  Shared by `flamme-tui serve`
(ui/serve.py) and `flamme-tui host` (net/host.py); no Textual here.
"""

from __future__ import annotations

import ipaddress
import socket
import time

from ..i18n import _

RATE, BURST = 200.0, 400.0  # messages a second from one peer, on average and at once (serve's default)


def lan_address() -> str:
    """This machine's address on its network (no packet is sent: a UDP socket
    is only pointed somewhere), 127.0.0.1 if it has none."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed anywhere real
            return str(probe.getsockname()[0])
    except OSError:
        return "127.0.0.1"


def join_address(host: str, port: int) -> str:
    shown = lan_address() if host in ("", "0.0.0.0", "::") else host
    return f"{f'[{shown}]' if ':' in shown else shown}:{port}"


def cannot_listen(host: str, port: int) -> str | None:
    """Why nothing can listen on host:port (an unknown name, not this
    machine's address, a port taken), tried before anything is printed;
    None if it can."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
        family, kind, proto, _name, address = infos[0]
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server will
            probe.bind(address)
    except OSError as exc:
        return str(exc.strerror or exc)
    except (UnicodeError, ValueError) as exc:  # a name no resolver takes
        return _("not a host name ({problem})").format(problem=type(exc).__name__)
    return None


def host_name(host_header: str) -> str | None:
    """The name in a Host header ("127.0.0.1:8000", "[::1]:8000", "pc"), lower case; None if malformed."""
    host = host_header.strip().lower()
    if host.startswith("["):  # an IPv6 address
        end = host.find("]")
        rest = host[end + 1:]
        if end < 0 or (rest and not (rest.startswith(":") and rest[1:].isdigit())):
            return None
        return host[1:end] or None
    name, _, port = host.partition(":")
    if port and not port.isdigit():
        return None
    return name or None


def is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def own_names(listen_host: str) -> set[str]:
    """The host names this server answers to besides IP addresses: the loopback
    names, the name it listens on, and this machine's name."""
    names = {"localhost", listen_host.lower().strip("[]")}
    try:
        machine = socket.gethostname().lower()
    except OSError:
        machine = ""
    if machine:
        names |= {machine, f"{machine}.local"}
    return names


def refusal(origin: str | None, host_header: str | None, names: set[str], allow_no_origin: bool = False) -> str | None:
    """Why a WebSocket from this Origin, asking for this Host, is refused; None
    if it comes from the server's own page.  A page from elsewhere sends its own
    Origin; a page of a site whose name was pointed at this machine sends a Host
    that is none of the server's names.  `allow_no_origin`: a peer that is no
    browser (a terminal client) sends none, and a web page cannot leave it out."""
    if not host_header:
        return _("no Host")
    name = host_name(host_header)
    if name is None:
        return _("a malformed Host")
    if not (is_ip(name) or name in names):
        return _("a Host that is not this server's name")
    if not origin:
        return None if allow_no_origin else _("no Origin (not from the server's page)")
    if origin and origin.strip().lower() not in (f"http://{host_header.lower()}", f"https://{host_header.lower()}"):
        return _("an Origin that is not the server's page")
    return None



class Bucket:
    """At most `rate` events a second on average, `burst` at once."""

    def __init__(self, rate: float = RATE, burst: float = BURST) -> None:
        self.rate, self.burst = rate, burst
        self.tokens = burst
        self.last = time.monotonic()

    def take(self, cost: float = 1.0) -> bool:
        """Whether an event of this cost (1, or its bytes) is allowed now; if so it is counted."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens < cost:
            return False
        self.tokens -= cost
        return True
