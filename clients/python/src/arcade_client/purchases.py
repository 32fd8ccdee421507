"""Chips bought over x402 with the official client (PyPI `x402`, its exact EVM scheme), under a
spending cap the caller sets: a tier whose price (the manifest's, then the 402 challenge's, in a
hook that runs before any payment is created) is above what is left of the cap is refused
before anything is signed. Without a cap nothing is bought. A decimal cap is read at a dollar
token's 6 decimals, this package's own: never at what the arcade says (a house stating 18 would
turn "0.05" into a cap of billions). A payment is charged to the cap as it is signed, whatever
the answer: a signed authorization can be settled by whoever holds it, so a refused or lost
purchase still spent what it signed. One purchase at a time per purse (async callers queue)."""

from __future__ import annotations

import asyncio
from decimal import Decimal, InvalidOperation
from typing import Any

from x402 import x402Client, x402ClientSync
from x402.mechanisms.evm import EthAccountSigner
from x402.mechanisms.evm.exact.register import register_exact_evm_client
from x402.schemas.hooks import AbortResult

from .errors import ArcadeError, SpendingCapError, UnsupportedServerError

SpendCap = int | str | Decimal

#: The decimals of the dollar tokens the arcade sells chips for (USDC's, the test dollar's).
DOLLAR_DECIMALS = 6


def check_decimals(manifest: dict[str, Any]) -> None:
    """UnsupportedServerError when the manifest states other decimals than a dollar token's."""
    stated = (manifest.get("token") or {}).get("decimals")
    if stated is not None and stated != DOLLAR_DECIMALS:
        raise UnsupportedServerError("token.decimals", stated, [DOLLAR_DECIMALS])


def cap_of(cap: SpendCap | None, decimals: int = DOLLAR_DECIMALS) -> int:
    """The cap in base units: an int as is, a decimal string (or Decimal) at the token's decimals."""
    if cap is None:
        return 0
    if isinstance(cap, int) and not isinstance(cap, bool):
        return cap
    try:
        amount = Decimal(str(cap).strip())
    except InvalidOperation:
        amount = Decimal(-1)
    scaled = amount.scaleb(decimals)
    if amount < 0 or scaled != scaled.to_integral_value():
        raise ValueError(f"max_spend {cap!r}: a decimal amount of the token, or base units as an int")
    return int(scaled)


def listed_price(manifest: dict[str, Any], tier: str) -> int:
    """The price of `tier` in base units, as the manifest lists it."""
    resources = manifest.get("resources") or []
    for resource in resources:
        if resource.get("tier") == tier and str(resource.get("path")).endswith(f"/chips/{tier}"):
            return int(resource["amount"])
    tiers = ", ".join(dict.fromkeys(str(r.get("tier")) for r in resources))
    raise ValueError(f"no tier {tier!r}; the arcade sells {tiers}")


class Purse:
    """Spends from one cap, one purchase at a time."""

    def __init__(self, account: Any, manifest: dict[str, Any], cap: int) -> None:
        check_decimals(manifest)
        self.account = account
        self.manifest = manifest
        self.cap = cap
        self.spent = 0
        self.refused: SpendingCapError | None = None
        #: Held by an async purchase from before its check to its answer.
        self.turn = asyncio.Lock()

    @property
    def remaining(self) -> int:
        return self.cap - self.spent

    def check_listed(self, tier: str) -> None:
        """SpendingCapError when the manifest's price of `tier` is above what is left."""
        price = listed_price(self.manifest, tier)
        if price > self.remaining:
            raise SpendingCapError(tier, price, self.remaining)
        self.refused = None

    def _before_payment(self, tier: str) -> Any:
        def hook(context: Any) -> AbortResult | None:
            charged = int(context.selected_requirements.amount)
            if charged <= self.remaining:
                # Spent as it is signed: the answer may be refused or lost after the payment is taken.
                self.spent += charged
                return None
            self.refused = SpendingCapError(tier, charged, self.remaining)
            return AbortResult(reason=str(self.refused))
        return hook

    def _register(self, client: Any, tier: str) -> Any:
        register_exact_evm_client(client, EthAccountSigner(self.account))
        client.set_spend_controls({"allowed_assets": [{"network": self.manifest["network"], "asset": self.manifest["asset"]}]})
        client.on_before_payment_creation(self._before_payment(tier))
        return client

    def sync_client(self, tier: str) -> x402ClientSync:
        client: x402ClientSync = self._register(x402ClientSync(), tier)
        return client

    def async_client(self, tier: str) -> x402Client:
        client: x402Client = self._register(x402Client(), tier)
        return client

    def settle(self, status: int, body: Any) -> dict[str, Any]:
        """The purchase from the arcade's answer (the cap already charged), or ArcadeError."""
        if status >= 400 or not isinstance(body, dict):
            body = body if isinstance(body, dict) else {}
            code = body.get("code") or body.get("error") or f"http_{status}"
            raise ArcadeError(str(code), status, str(body.get("detail") or body.get("errorMessage") or "purchase refused"), body)
        return body
