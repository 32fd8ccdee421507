"""The errors a caller can tell apart: the arcade refused (its `code` and HTTP status), a round
did not verify (the failed check's name), a purchase was above the spending cap, or the server
announces a fairness version or API shape this package does not speak."""

from __future__ import annotations

import json
from typing import Any


class ArcadeError(Exception):
    """The arcade answered with an error: `code` is its stable machine-readable code."""

    def __init__(self, code: str, status: int, detail: str, body: Any = None) -> None:
        super().__init__(f"{status} {code}: {detail}")
        self.code = code
        self.status = status
        self.body = body


class VerificationError(Exception):
    """A round (or a bet asked for) did not verify. `check` names the first failed check of the
    shared verdict (`rederive`, `receipt_signature`, `inclusion`, `batch_signature`, `signer`, …);
    `verdict` is the whole verdict, every failure listed."""

    def __init__(self, verdict: dict[str, Any], receipt: Any = None) -> None:
        self.check: str = verdict.get("check") or "not_proven"
        bet = verdict.get("bet_id")
        super().__init__(f"round {bet if bet is not None else '(unknown)'} did not verify: {self.check}: {verdict.get('reason')}")
        self.verdict = verdict
        self.receipt = receipt


class SpendingCapError(Exception):
    """A purchase whose price is above what is left of the caller's spending cap; nothing was signed."""

    def __init__(self, tier: str, price: int, remaining: int) -> None:
        super().__init__(f"buying {tier} costs {price} base units of the token; {remaining} are left of the "
                         "spending cap: refused before signing")
        self.tier = tier
        self.price = price
        self.remaining = remaining


class UnsupportedServerError(Exception):
    """The server announces a fairness version or API shape this package does not support."""

    def __init__(self, field: str, announced: Any, supported: Any) -> None:
        super().__init__(f"the server announces {field} {json.dumps(announced)}; this package supports {json.dumps(supported)}")
        self.field = field
        self.announced = announced
