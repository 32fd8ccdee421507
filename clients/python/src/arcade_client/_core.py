"""The client's logic without I/O: every operation is a generator that yields the requests it
needs (`Request`) and is sent back their answers (`Reply`), or has the transport's error thrown
into it. `Arcade` drives these with a blocking HTTP session, `AsyncArcade` with an async one,
so both run the same steps, in the same order, with the same checks."""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass, field
from typing import Any, TypeVar

from eth_account.messages import encode_defunct

from ._wasm import Verifiers
from .errors import ArcadeError

T = TypeVar("T")


@dataclass(frozen=True)
class Request:
    """One request to the arcade; `retry`: asked again while its answer is lost (safe to repeat)."""

    method: str
    path: str
    body: Any = None
    retry: bool = False


@dataclass(frozen=True)
class Reply:
    """An answer: its JSON, and how many times the request was sent."""

    json: Any
    tries: int = 1


Flow = Generator[Request, Reply, T]

#: Statement signatures the server no longer accepts: sign the current statement again.
STALE_SIGNATURE = frozenset({"signature_revoked", "signature_mismatch"})


def hex_of(signature: Any) -> str:
    """`0x` + hex of a signature from eth_account (bytes, HexBytes, or hex text)."""
    if isinstance(signature, str):
        return signature if signature.startswith("0x") else f"0x{signature}"
    return "0x" + bytes(signature).hex()


@dataclass
class Session:
    """The player and the statement signature of this session (signed once; again on rotation)."""

    account: Any
    statement_signature: str | None = None
    signatures: dict[str, int] = field(default_factory=lambda: {"messages": 0, "typed_data": 0})

    @property
    def address(self) -> str:
        return str(self.account.address)

    def sign_statement(self, fresh: bool = False) -> Flow[str]:
        if fresh or self.statement_signature is None:
            answer = (yield Request("GET", f"/api/arcade/auth-statement/{self.address}")).json
            signed = self.account.sign_message(encode_defunct(text=answer["statement"]))
            self.signatures["messages"] += 1
            self.statement_signature = hex_of(signed.signature)
        return self.statement_signature

    def sign_typed(self, typed: dict[str, Any]) -> str:
        signed = self.account.sign_typed_data(full_message=typed)
        self.signatures["typed_data"] += 1
        return hex_of(signed.signature)

    def signed(self, make: Any) -> Flow[Any]:
        """The request `make(signature)` builds, with the statement signature; signed again once
        if the server rotated the statement."""
        answer, _ = yield from self.signed_reply(make)
        return answer

    def signed_reply(self, make: Any) -> Flow[tuple[Any, int]]:
        """`signed`, with how many times the answered request was sent."""
        signature = yield from self.sign_statement()
        try:
            reply = yield make(signature)
            return reply.json, reply.tries
        except ArcadeError as error:
            if error.code not in STALE_SIGNATURE:
                raise
        signature = yield from self.sign_statement(fresh=True)
        reply = yield make(signature)
        return reply.json, reply.tries


def read_trust(v: Verifiers, pin: dict[str, Any]) -> Flow[tuple[Any, dict[str, Any]]]:
    """The manifest and its trust under `pin` (audit/bet.mjs's readArcade)."""
    from .checks.trust import read_trust as trust_of

    manifest = (yield Request("GET", "/api/arcade/manifest")).json
    return manifest, trust_of(v, manifest, pin)


def read_arcade(v: Verifiers, pin: dict[str, Any]) -> Flow[tuple[Any, dict[str, Any], dict[Any, Any]]]:
    """The manifest, its trust under `pin`, and every signed seed batch (for a floor audit)."""
    from .checks.batches import signed_batches

    manifest, trust = yield from read_trust(v, pin)
    listing = (yield Request("GET", "/api/arcade/seed-batches")).json
    return manifest, trust, signed_batches(v, trust, listing)


def seed_row(v: Verifiers, trust: dict[str, Any], batches: dict[Any, Any],
             receipt: Any) -> Flow[tuple[dict[Any, Any], list[dict[str, Any]]]]:
    """The row of a receipt's seed with its batch's signed root, one read of a few kilobytes
    whatever the batch's size (audit/bet.mjs's seedRow): `(batches, also)`, the batch added as
    `signed_batches` checks it and the row's failures against the receipt. Every receipt's own
    row is read and judged; a batch already in `batches` keeps the root it was first read with,
    and a row answered under another root or size for it fails `batch_row` (two roots for one
    batch). An answer adds no other batch than the receipt's; a row the arcade does not have
    fails."""
    from .checks.batches import judge_row, signed_batches
    from .checks.rounds import is_unsigned

    proofs = (receipt or {}).get("proofs") if isinstance(receipt, dict) else None
    claim = (proofs or {}).get("batch") or {}
    if not claim or is_unsigned(proofs):
        return batches, []
    if not all(isinstance(claim.get(k), int) and not isinstance(claim.get(k), bool) for k in ("batch_id", "index")):
        why = f"the receipt names seed batch {claim.get('batch_id')!r} index {claim.get('index')!r}: not whole numbers"
        return batches, [{"check": "batch_row", "why": why}]
    try:
        answer = (yield Request("GET", f"/api/arcade/seed-batches/{claim['batch_id']}/rows/{claim['index']}")).json
    except ArcadeError as error:
        if error.status != 404:
            raise
        why = f"seed batch {claim['batch_id']} index {claim['index']}: the arcade answered {error.status} {error.code}: {error}"
        return batches, [{"check": "batch_row", "why": why}]
    answered = answer.get("batch") if isinstance(answer, dict) else None
    if not isinstance(answered, dict) or answered.get("batch_id") != claim["batch_id"]:
        got = answered.get("batch_id") if isinstance(answered, dict) else None
        why = f"asked for seed batch {claim['batch_id']} index {claim['index']}, the arcade answered a row of batch {got!r}"
        return batches, [{"check": "batch_row", "why": why}]
    before = batches.get(claim["batch_id"])
    if before is not None:
        also = judge_row(v, answer, receipt)
        if (answered.get("merkle_root"), answered.get("size")) != (before.get("merkle_root"), before.get("size")):
            also.append({"check": "batch_row", "why": (
                f"seed batch {claim['batch_id']} index {claim['index']} was answered under root "
                f"{answered.get('merkle_root')} of {answered.get('size')} seeds, not the root "
                f"{before.get('merkle_root')} of {before.get('size')} read for it before")})
        return batches, also
    return {**batches, **signed_batches(v, trust, [answered])}, judge_row(v, answer, receipt)
