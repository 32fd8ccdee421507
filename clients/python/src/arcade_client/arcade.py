"""The blocking client: connect to an arcade (its manifest read, its signer and domain pinned,
its versions checked), buy chips over x402 under a cap, and play. Every round is verified by
the shared checks, over the wasm core, before the call returns."""

from __future__ import annotations

from typing import Any

from x402.http.clients import x402_requests

from . import _client
from ._client import BetCheck, Round, State
from ._http import SyncHttp, drive
from .audit import audit_flow
from .games import Endpoint
from .purchases import SpendCap


class Arcade:
    """A player at one arcade. Create it with `Arcade.connect`."""

    def __init__(self, url: str, http: SyncHttp, state: State) -> None:
        self.url = url
        self._http = http
        self._state = state

    @classmethod
    def connect(cls, url: str, *, account: Any, max_spend: SpendCap | None = None,
                pin: dict[str, Any] | None = None) -> Arcade:
        """Reads the manifest, checks its versions and pins its signer (or `pin["signer"]`) and
        signed marks. `account`: an eth_account LocalAccount; `max_spend`: the most this client may
        spend on chips (base units as an int, or a decimal of the token such as "0.50")."""
        base = url if url.endswith("/") else f"{url}/"
        http = SyncHttp(base)
        return cls(base, http, drive(_client.connect(account, max_spend, pin), http))

    @property
    def address(self) -> str:
        """The player's address."""
        return self._state.session.address

    @property
    def signer(self) -> str:
        """The house signer every round is checked against, pinned at connect."""
        return str(self._state.verifier.pin["signer"])

    @property
    def spendable(self) -> int:
        """What is left of the spending cap, in the token's base units."""
        return self._state.purse.remaining

    @property
    def compatibility(self) -> Any:
        return self._state.compatibility

    def buy_chips(self, tier: str = "small") -> dict[str, Any]:
        """Buys chips of `tier` over x402; SpendingCapError above the cap, before anything is signed."""
        purse = self._state.purse
        purse.check_listed(tier)
        try:
            with x402_requests(purse.sync_client(tier)) as session:
                response = session.post(f"{self.url}api/arcade/chips/{tier}", timeout=60)
        except Exception as error:
            raise (purse.refused or error) from None
        if purse.refused:
            raise purse.refused
        try:
            body = response.json()
        except ValueError:
            body = None
        return purse.settle(response.status_code, body)

    def _play(self, endpoint: Endpoint, call: dict[str, Any]) -> Round:
        return drive(_client.play(self._state, endpoint, call), self._http)

    def flip(self, *, wager: int, call: str, client_seed: str | None = None) -> Round:
        return self._play("flip", {"wager": wager, "call": call, "client_seed": client_seed})

    def dice(self, *, wager: int, target: int, direction: str = "under", client_seed: str | None = None) -> Round:
        return self._play("dice", {"wager": wager, "target": target, "direction": direction, "client_seed": client_seed})

    def roulette(self, *, wager: int, bet: str, number: int | None = None, client_seed: str | None = None) -> Round:
        return self._play("roulette", {"wager": wager, "bet": bet, "number": number, "client_seed": client_seed})

    def limbo(self, *, wager: int, target: str | int, client_seed: str | None = None) -> Round:
        return self._play("limbo", {"wager": wager, "target": target, "client_seed": client_seed})

    def balance(self) -> dict[str, Any]:
        return drive(_client.balance(self._state), self._http)

    def cashout(self, chips: int, *, idempotency_key: str | None = None) -> dict[str, Any]:
        """Redeems `chips` (paid chips only) for the token, sent to the player's address, under a
        fresh idempotency key (or `idempotency_key`): a lost answer is asked for again and the
        arcade answers the same cashout, never a second transfer."""
        return drive(_client.cashout(self._state, chips, idempotency_key), self._http)

    def verify(self, bet_id: int) -> BetCheck:
        """Any bet as the arcade serves it now, under the pinned signer (the manifest read again).
        VerificationError when a check fails; `verified` False when not proven."""
        return drive(_client.verify(self._state, bet_id), self._http)

    def audit(self, *, address: str | None = "", limit: int | None = None) -> dict[str, Any]:
        """Every receipt of the feed judged under the pin, `address`'s rounds (default: the
        player's; None: everyone's) counted apart with their checks and realized return."""
        owner = self.address if address == "" else address
        return drive(audit_flow(self._state.verifier, owner, limit), self._http)
