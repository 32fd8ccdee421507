"""The async client: `AsyncArcade`, the same operations as `Arcade` (the same flows, the same
checks), awaited over httpx; purchases with the official async x402 client."""

from __future__ import annotations

from typing import Any

import httpx
from x402.http.clients import x402_httpx_transport

from . import _client
from ._client import BetCheck, Round, State
from ._http import ANSWER_TIMEOUT_S, AsyncHttp, drive_async
from .audit import audit_flow
from .games import Endpoint
from .purchases import SpendCap


class AsyncArcade:
    """A player at one arcade, async. Create it with `await AsyncArcade.connect(...)`; close it
    with `await arcade.aclose()` or use it as an async context manager."""

    def __init__(self, url: str, http: AsyncHttp, state: State) -> None:
        self.url = url
        self._http = http
        self._state = state

    @classmethod
    async def connect(cls, url: str, *, account: Any, max_spend: SpendCap | None = None,
                      pin: dict[str, Any] | None = None) -> AsyncArcade:
        """As `Arcade.connect`."""
        base = url if url.endswith("/") else f"{url}/"
        http = AsyncHttp(base)
        try:
            state = await drive_async(_client.connect(account, max_spend, pin), http)
        except BaseException:
            await http.client.aclose()
            raise
        return cls(base, http, state)

    async def __aenter__(self) -> AsyncArcade:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._http.client.aclose()

    @property
    def address(self) -> str:
        return self._state.session.address

    @property
    def signer(self) -> str:
        return str(self._state.verifier.pin["signer"])

    @property
    def spendable(self) -> int:
        return self._state.purse.remaining

    async def buy_chips(self, tier: str = "small") -> dict[str, Any]:
        """As `Arcade.buy_chips`, with the async x402 client; purchases made together wait their turn."""
        async with self._state.purse.turn:
            return await self._buy_now(tier)

    async def _buy_now(self, tier: str) -> dict[str, Any]:
        purse = self._state.purse
        purse.check_listed(tier)
        transport = x402_httpx_transport(purse.async_client(tier))
        try:
            async with httpx.AsyncClient(transport=transport, timeout=ANSWER_TIMEOUT_S * 2) as client:
                response = await client.post(f"{self.url}api/arcade/chips/{tier}")
        except Exception as error:
            raise (purse.refused or error) from None
        if purse.refused:
            raise purse.refused
        try:
            body = response.json()
        except ValueError:
            body = None
        return purse.settle(response.status_code, body)

    async def _play(self, endpoint: Endpoint, call: dict[str, Any]) -> Round:
        return await drive_async(_client.play(self._state, endpoint, call), self._http)

    async def flip(self, *, wager: int, call: str, client_seed: str | None = None) -> Round:
        return await self._play("flip", {"wager": wager, "call": call, "client_seed": client_seed})

    async def dice(self, *, wager: int, target: int, direction: str = "under", client_seed: str | None = None) -> Round:
        return await self._play("dice", {"wager": wager, "target": target, "direction": direction, "client_seed": client_seed})

    async def roulette(self, *, wager: int, bet: str, number: int | None = None, client_seed: str | None = None) -> Round:
        return await self._play("roulette", {"wager": wager, "bet": bet, "number": number, "client_seed": client_seed})

    async def limbo(self, *, wager: int, target: str | int, client_seed: str | None = None) -> Round:
        return await self._play("limbo", {"wager": wager, "target": target, "client_seed": client_seed})

    async def balance(self) -> dict[str, Any]:
        return await drive_async(_client.balance(self._state), self._http)

    async def cashout(self, chips: int, *, idempotency_key: str | None = None) -> dict[str, Any]:
        return await drive_async(_client.cashout(self._state, chips, idempotency_key), self._http)

    async def verify(self, bet_id: int) -> BetCheck:
        return await drive_async(_client.verify(self._state, bet_id), self._http)

    async def audit(self, *, address: str | None = "", limit: int | None = None) -> dict[str, Any]:
        owner = self.address if address == "" else address
        return await drive_async(audit_flow(self._state.verifier, owner, limit), self._http)
