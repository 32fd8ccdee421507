"""The client's operations as flows (see `_core`): connect, play, verify a bet, balance and
cashout. Each round is committed, played with a fresh client seed and the player's Play
signature, and judged by the shared composition before the flow returns. Each play asks for its
successor (`next_round`), so after a session's first round a round costs one request: the next
play takes the round the last one opened, its commitment shown (and checked, as a commit answer
is) before its client seed exists."""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from ._core import Flow, Request, Session
from .errors import ArcadeError
from .games import GAME_OF, Endpoint, random_client_seed, shape_of
from .purchases import Purse, SpendCap, cap_of
from .verifier import Verifier, require_pass
from .versions import Compatibility, check_manifest, check_round_version


@dataclass(frozen=True)
class Round:
    """A round played and verified (else VerificationError was raised). `timings`: milliseconds of
    the whole call and of its client-side verification, and how many times the play was sent.
    `chained`: the round was the one the previous play opened (no commit was asked for)."""

    verified: bool
    bet_id: int
    game: str
    won: bool
    payout: int
    profit: int
    result: dict[str, Any]
    balance: int
    replayed: bool
    chained: bool
    receipt: dict[str, Any]
    verdict: dict[str, Any]
    timings: dict[str, float]


@dataclass(frozen=True)
class BetCheck:
    """`verify(bet_id)`'s answer: `verified` False when consistent but not proven."""

    verified: bool
    verdict: dict[str, Any]
    receipt: dict[str, Any] | None


@dataclass
class State:
    """What a connected client holds."""

    session: Session
    verifier: Verifier
    purse: Purse
    compatibility: Compatibility
    #: Rounds this session's verified plays opened (`next_round`), one taken per play.
    successors: list[dict[str, Any]] = field(default_factory=list)


#: A round opened by a play is left for a fresh commit this many seconds before it expires.
SUCCESSOR_MARGIN_S = 5.0


def connect(account: Any, max_spend: SpendCap | None, pin: dict[str, Any] | None) -> Flow[State]:
    """Reads the manifest, checks its versions, and pins its signer and signing domain."""
    manifest = (yield Request("GET", "/api/arcade/manifest")).json
    compatibility = check_manifest(manifest)
    verifier = yield from Verifier.open(manifest, pin)
    purse = Purse(account, manifest, cap_of(max_spend))
    return State(Session(account), verifier, purse, compatibility)


def round_to_play(state: State) -> Flow[tuple[dict[str, Any], bool]]:
    """The round to play: one a verified play opened (while well within its time), else a fresh
    commit; and whether it was the former."""
    while state.successors:
        successor = state.successors.pop()
        # `Z` read as UTC by every Python this package runs on (fromisoformat takes it from 3.11).
        expires = datetime.fromisoformat(str(successor.get("expires_at", "")).replace("Z", "+00:00"))
        left = expires - datetime.now(timezone.utc)
        if left.total_seconds() > SUCCESSOR_MARGIN_S:
            return successor, True
    session = state.session
    commit = yield from session.signed(
        lambda signature: Request("POST", "/api/arcade/commit", {"address": session.address, "signature": signature}))
    return commit, False


def play(state: State, endpoint: Endpoint, call: dict[str, Any]) -> Flow[Round]:
    """A round played on the next round (see `round_to_play`). Once a Play is signed for a
    round, this call plays that round or nothing: a successor refused as expired (a rotation
    expires every open round) raises ArcadeError naming it, the rounds kept are let go, and the
    next call commits afresh. (Playing another round in its place here would let an arcade hide
    a round it would lose by calling it expired, and re-roll it unseen.)"""
    started = time.perf_counter()
    commit, chained = yield from round_to_play(state)
    try:
        return (yield from play_on(state, commit, chained, endpoint, call, started))
    except ArcadeError as error:
        if chained and error.code == "round_expired":
            state.successors.clear()
        raise


def play_on(state: State, commit: dict[str, Any], chained: bool, endpoint: Endpoint, call: dict[str, Any],
            started: float) -> Flow[Round]:
    """Sign the Play of `commit`, play it asking for its successor (asked again while the answer
    is lost: the statement signature on the play lets a replay carry the successor too), verify
    it against the commit answer and the play sent. The successor is kept apart from the receipt
    (an open round's id is for its owner alone) and kept whatever the verdict: it is judged as
    any round when it is played."""
    session = state.session
    check_round_version(commit.get("fairness_version"))
    body_fields, play_params = shape_of(endpoint, call)
    client_seed = call.get("client_seed") or random_client_seed()
    play_call = {"round_id": commit["round_id"], "address": commit["address"], "commitment": commit["commitment"],
                 "game": GAME_OF[endpoint], "client_seed": client_seed, "wager": call["wager"], "params": play_params}
    typed = state.verifier.wasm.play_typed_data(play_call, state.verifier.domain)
    fields = {"round_id": commit["round_id"], "client_seed": client_seed, "wager": call["wager"], **body_fields,
              "play_signature": session.sign_typed(typed), "next_round": True}

    def send(signature: str) -> Request:
        return Request("POST", f"/api/arcade/{endpoint}", {**fields, "signature": signature}, retry=True)

    answer, tries = yield from session.signed_reply(send)
    successor = answer.pop("next_round", None) if isinstance(answer, dict) else None
    if successor:
        state.successors.append(successor)
    sent = {"game": GAME_OF[endpoint], "client_seed": client_seed, "wager": call["wager"]}
    verdict, ms = yield from state.verifier.check_play(answer, commit, session.address, sent)
    return Round(
        verified=True, bet_id=answer["bet_id"], game=answer["game"], won=answer["won"], payout=answer["payout"],
        profit=answer["profit"], result=answer["result"], balance=answer["balance"], replayed=answer.get("replayed", False),
        chained=chained, receipt=answer, verdict=verdict,
        timings={"total_ms": (time.perf_counter() - started) * 1000, "verify_ms": ms, "tries": tries},
    )


def verify(state: State, bet_id: int) -> Flow[BetCheck]:
    """Any bet as the arcade serves it now, under the pinned signer."""
    verdict, receipt = yield from state.verifier.check_bet(bet_id)
    if verdict["verdict"] == "fail":
        require_pass(verdict, receipt)
    return BetCheck(verdict["verdict"] == "pass", verdict, receipt)


def balance(state: State) -> Flow[dict[str, Any]]:
    answer: dict[str, Any] = (yield Request("GET", f"/api/arcade/balance/{state.session.address}")).json
    return answer


def cashout(state: State, chips: int, idempotency_key: str | None = None) -> Flow[dict[str, Any]]:
    """Redeems `chips` (paid chips only) for the token, sent to the player's address, under a
    fresh idempotency key (or `idempotency_key`): an answer lost in transit is asked for again
    and the arcade answers the same cashout, never a second transfer."""
    session = state.session
    key = idempotency_key or str(uuid.uuid4())
    answer: dict[str, Any] = yield from session.signed(lambda signature: Request(
        "POST", "/api/arcade/cashout",
        {"address": session.address, "chips": chips, "signature": signature, "idempotency_key": key},
        retry=True))
    return answer
