"""JavaScript's notions the composition relies on, so a verdict here is the JS verdict."""

from __future__ import annotations

import re
from typing import Any

MAX_SAFE_INTEGER = 2**53 - 1
_ADDRESS = re.compile(r"^0x[0-9a-fA-F]{40}$")


def falsy(value: Any) -> bool:
    """JavaScript's `!value`: undefined/null, false, 0, NaN and "" (objects are truthy)."""
    if value is None or value is False:
        return True
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value == 0 or value != value
    return isinstance(value, str) and value == ""


def is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def is_safe_integer(value: Any) -> bool:
    """`Number.isSafeInteger`."""
    if not is_number(value) or value != value or value in (float("inf"), float("-inf")):
        return False
    return float(value).is_integer() and abs(value) <= MAX_SAFE_INTEGER


def is_address(value: Any) -> bool:
    return isinstance(value, str) and _ADDRESS.match(value) is not None


def same_address(a: Any, b: Any) -> bool:
    return is_address(a) and is_address(b) and str(a).lower() == str(b).lower()


def field(value: Any, name: str) -> Any:
    """`value?.[name]`: None for anything that is not an object or lacks it."""
    return value.get(name) if isinstance(value, dict) else None


def show(value: Any) -> str:
    """`JSON.stringify` of a value, for the messages."""
    import json

    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
