"""The four games' calls: the body each endpoint takes and the params the player's Play names
(as the receipt will show them)."""

from __future__ import annotations

import re
import secrets
from decimal import Decimal
from typing import Any, Literal

GAME_OF: dict[str, str] = {"flip": "coinflip", "dice": "dice", "roulette": "roulette", "limbo": "limbo"}
Endpoint = Literal["flip", "dice", "roulette", "limbo"]
# Limbo's target as the core reads it: its description's pattern (wasm/js/games.js), which
# tests/test_games.py holds this to.
LIMBO_TARGET = re.compile(
    r"^(?:1\.(?:0[1-9]|[1-9][0-9]?)|(?:[2-9]|[1-9][0-9]{1,5})(?:\.[0-9]{1,2})?|1000000(?:\.00?)?)$"
)


def hundredths(target: str | int | Decimal) -> int:
    """A limbo target in hundredths, exactly (`"2.5"` → 250), or ValueError for a target the
    core's pattern refuses (above 1.00 up to 1000000, at most two decimals)."""
    text = str(target).strip()
    if not LIMBO_TARGET.fullmatch(text):
        raise ValueError(f"limbo target {target!r}: a multiplier above 1.00 up to 1000000, with at most two decimals")
    whole, _, decimals = text.partition(".")
    return int(whole) * 100 + int(decimals.ljust(2, "0"))


def shape_of(endpoint: Endpoint, call: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """`(body fields, Play params)` of a call to `endpoint`."""
    if endpoint == "flip":
        return {"call": call["call"]}, {"call": call["call"]}
    if endpoint == "dice":
        fields = {"target": call["target"], "direction": call.get("direction") or "under"}
        return fields, dict(fields)
    if endpoint == "roulette":
        fields = {"bet": call["bet"], "number": call.get("number")} if call["bet"] == "straight" else {"bet": call["bet"]}
        return fields, dict(fields)
    return {"target": str(call["target"])}, {"target_hundredths": hundredths(call["target"])}


def random_client_seed() -> str:
    """A client seed the house cannot know before it commits: 16 random bytes, hex."""
    return secrets.token_hex(16)
