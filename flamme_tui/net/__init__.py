"""Each player's hand on their own device: the host and its wire protocol.

`wire` turns the table into the messages of docs/PROTOCOL.md (a seat's own
turn from that seat's view only, the public table, the revealed rounds) and
reads them back; `host` holds the game and serves it over WebSockets;
`client` is a device's end of the line (the Textual screen is ui/join.py).
No Textual here (tests/test_imports.py): the host runs headless.
"""
