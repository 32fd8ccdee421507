"""The client's verifier: the trust (signer, domain, signed marks) pinned at connect, the signed
seed batches (read again, with the manifest, when a receipt names a batch not yet read), and the
verdicts of the shared composition (`checks`) over the wasm module."""

from __future__ import annotations

import time
from typing import Any

from ._core import Flow, Request
from ._core import read_trust, seed_row
from ._wasm import Verifiers, WasmError, verifiers
from .checks.verdicts import FAIL, FROM_HOUSE, PASS, judge_round, refused_verdict
from .errors import ArcadeError, VerificationError

VERDICT_FIELDS = ("verdict", "bet_id", "signer", "signer_pinned", "player", "check", "failures", "reason")


def slim(verdict: dict[str, Any]) -> dict[str, Any]:
    """The verdict fields kept on results (the wasm report and the derived round left out)."""
    return {k: verdict[k] for k in VERDICT_FIELDS}


def require_pass(verdict: dict[str, Any], receipt: Any) -> None:
    """Raises VerificationError unless the verdict is a pass."""
    if verdict["verdict"] != PASS:
        raise VerificationError(verdict, receipt)


def not_sent(receipt: Any, sent: dict[str, Any]) -> list[dict[str, Any]]:
    """`[{check: 'sent_play', why}]` when `receipt` is not the round of the play sent, else `[]`."""
    got = receipt if isinstance(receipt, dict) else {}
    differ = [f"{field} {got.get(field)!r}, sent {sent[field]!r}" for field in ("game", "client_seed", "wager")
              if got.get(field) != sent[field]]
    if not differ:
        return []
    return [{"check": "sent_play", "why": f"the receipt is not the round of the play sent: {'; '.join(differ)}"}]


class Verifier:
    """Judges rounds under the trust pinned at connect."""

    def __init__(self, pin: dict[str, Any], trust: dict[str, Any], batches: dict[Any, Any]) -> None:
        self.wasm: Verifiers = verifiers()
        self.pin = pin
        self.trust = trust
        self.batches = batches

    @staticmethod
    def open(manifest: Any, pin: dict[str, Any] | None) -> Flow[Verifier]:
        """Reads the trust under `pin` (the manifest's signer and marks when none); batches are read
        by row, the first time a round names one."""
        pin = dict(pin or {})
        pin.setdefault("signer", manifest.get("signer"))
        marks = manifest.get("signed_marks")
        if "marks" not in pin and marks:
            pin["marks"] = {"signed_from": marks["signed_from"], "house_agent_signed_from": marks["house_agent_signed_from"]}
        _, trust = yield from read_trust(verifiers(), pin)
        problems = trust["problems"]
        if problems:
            first = problems[0]
            verdict = {"verdict": FAIL, "bet_id": None, "signer": pin["signer"], "signer_pinned": True, "player": None,
                       "check": first["check"], "failures": problems, "reason": f"{first['check']}: {first['why']}"}
            raise VerificationError(verdict, manifest)
        return Verifier(pin, trust, {})

    @property
    def domain(self) -> dict[str, Any]:
        """The signing domain the Play is signed in (the pinned manifest's)."""
        domain: dict[str, Any] = self.trust["domain"]
        return domain

    def context(self) -> dict[str, Any]:
        return {"wasm": self.wasm, "trust": self.trust, "batches": self.batches}

    def check_play(self, receipt: Any, commit: Any, player: str,
                   sent: dict[str, Any]) -> Flow[tuple[dict[str, Any], float]]:
        """A round just played, against the player's commit answer and address, and the play
        sent (`sent`: its game, client seed and wager; a receipt of another is `sent_play`, an
        old receipt answered for a new play, say): `(verdict, ms)` (ms: judging only; the read
        of the round's own batch row, under the batch's signed root kept from its first read,
        not counted); VerificationError unless it passes."""
        # A row the arcade does not answer leaves the round not proven, every other check still
        # made: the round was played, so its verdict is never an error about the read.
        also: list[dict[str, Any]] = []
        unreachable = None
        try:
            self.batches, also = yield from seed_row(self.wasm, self.trust, self.batches, receipt)
        except Exception as error:  # any failed read: the verdict says which
            unreachable = f"the seed batch row: {error}"
        also = [*also, *not_sent(receipt, sent)]
        started = time.perf_counter()
        context = {**self.context(), "unreachable": unreachable}
        verdict = slim(judge_round(context, receipt, source=FROM_HOUSE, player=player, commit=commit, also=also))
        ms = (time.perf_counter() - started) * 1000
        require_pass(verdict, receipt)
        return verdict, ms

    def check_bet(self, bet_id: int, player: str | None = None) -> Flow[tuple[dict[str, Any], Any]]:
        """Bet `bet_id` as the arcade serves it now, the manifest read again: `(verdict, receipt)`."""
        if isinstance(bet_id, bool) or not isinstance(bet_id, int) or bet_id < 1:
            return refused_verdict("bet_id", f"{bet_id!r} is not a bet id"), None
        _, trust = yield from read_trust(self.wasm, self.pin)
        try:
            answer = (yield Request("GET", f"/api/arcade/verify/{bet_id}")).json
        except ArcadeError as error:
            why = f"the arcade answered {error.status} {error.code}: {error}"
            return slim(refused_verdict("answer", why, bet_id, trust)), None
        batches, also = yield from seed_row(self.wasm, trust, {}, answer)
        context = {"wasm": self.wasm, "trust": trust, "batches": batches}
        verdict = judge_round(context, answer, asked=bet_id, source=FROM_HOUSE, player=player, also=also)
        return slim(verdict), answer


__all__ = ["Verifier", "WasmError", "require_pass", "slim"]
