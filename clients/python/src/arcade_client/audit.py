"""The floor audited from the feed: every receipt the arcade serves (paged from
`/api/arcade/receipts`), each judged by the shared composition under the pinned trust, and an
address's rounds counted apart with their realized return to player per game."""

from __future__ import annotations

from typing import Any

from ._core import Flow, Request
from ._core import read_arcade as _read
from .checks.js import same_address
from .checks.verdicts import FROM_HOUSE, PASS, judge_round
from .verifier import Verifier

PAGE = 1000


def _tally(games: dict[str, dict[str, Any]], verdict: dict[str, Any]) -> None:
    round_ = verdict["round"]
    if round_ is None:
        return
    game = games.setdefault(round_["game"], {"rounds": 0, "wagered": 0, "paid_out": 0})
    game["rounds"] += 1
    game["wagered"] += round_["wager"]
    game["paid_out"] += round_["payout"]


def audit_flow(verifier: Verifier, address: str | None, limit: int | None) -> Flow[dict[str, Any]]:
    """`{address, rounds, verified, failures, checks, rtp, floor}` (see `Arcade.audit`)."""
    _, trust, batches = yield from _read(verifier.wasm, verifier.pin)
    context = {"wasm": verifier.wasm, "trust": trust, "batches": batches}
    receipts = yield from _feed(limit)
    floor_failures: list[dict[str, Any]] = [{"bet_id": None, **p} for p in trust["problems"]]
    mine: dict[str, Any] = {"rounds": 0, "verified": 0, "failures": [], "games": {}}
    floor: dict[str, int] = {"rounds": 0, "verified": 0}
    for receipt in receipts:
        verdict = judge_round(context, receipt, source=FROM_HOUSE, trust_problems=False)
        floor["rounds"] += 1
        floor["verified"] += verdict["verdict"] == PASS
        failures = [{"bet_id": receipt.get("bet_id"), **f} for f in verdict["failures"]]
        floor_failures.extend(failures)
        if address is not None and not same_address(receipt.get("address"), address):
            continue
        mine["rounds"] += 1
        mine["verified"] += verdict["verdict"] == PASS
        mine["failures"].extend(failures)
        _tally(mine["games"], verdict)
    own = [f["check"] for f in mine["failures"]] + [f["check"] for f in floor_failures if f["bet_id"] is None]
    rtp = {game: {**t, "realized_return": t["paid_out"] / t["wagered"] if t["wagered"] else None}
           for game, t in mine["games"].items()}
    return {
        "address": address, "rounds": mine["rounds"], "verified": mine["verified"], "failures": mine["failures"],
        "checks": list(dict.fromkeys(own)), "rtp": rtp,
        "floor": {"verdict": "fail" if floor_failures else "pass", "rounds": floor["rounds"], "verified": floor["verified"],
                  "failures": floor_failures, "signer": trust["signer"]},
    }


def _feed(limit: int | None) -> Flow[list[dict[str, Any]]]:
    """Every receipt of the feed in bet order (the last `limit` when given)."""
    receipts: list[dict[str, Any]] = []
    cursor = 0
    while True:
        answer = (yield Request("GET", f"/api/arcade/receipts?after={cursor}&limit={PAGE}")).json
        page = answer.get("receipts") or []
        receipts.extend(page)
        following = answer.get("next_after")
        if not page or following is None or following <= cursor:
            break
        cursor = following
    return receipts[-limit:] if limit else receipts
