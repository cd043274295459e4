"""The breakaway's result (PELOTON.md, Breakaway): who breaks away from the bids.

The phase itself (bidders, bids drawn and revealed, cards, placement) is
ClassicGame's; this module holds the ordering rule alone.
"""

from __future__ import annotations


def bid_order(totals: dict[int, int], pos: list[list[int]]) -> list[int]:
    """Bidding riders, best bid first.  A tie goes to the rider further back
    on the grid; on one square, to the rider in the higher lane."""
    return sorted(totals, key=lambda i: (-totals[i], pos[i][0], -pos[i][1]))
