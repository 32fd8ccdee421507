"""The published seed batches, each root signature checked once (audit/batches.mjs's
`signedBatches` and `checkRootSignature`), and one row of a batch against its receipt
(`judgeRow`)."""

from __future__ import annotations

from typing import Any

from .._wasm import Verifiers, WasmError
from .proofs import check_inclusion, check_signature, expected_batch_message


def check_root_signature(v: Verifiers, trust: dict[str, Any], batch: dict[str, Any]) -> str | None:
    """Why a batch's signed root does not hold (None when it does)."""
    try:
        message = expected_batch_message(v, batch)
    except WasmError as error:
        return f"batch cannot be turned into its signed message: {error.message}"
    signed = {"signature": batch.get("signature"), "typed_data": batch.get("typed_data")}
    return check_signature(v, signed, trust, "SeedBatch", message)


def signed_batches(v: Verifiers | None, trust: dict[str, Any], listing: Any) -> dict[Any, dict[str, Any]]:
    """The published batches by id: `{batch_id, size, used, merkle_root, problem}` each."""
    out: dict[Any, dict[str, Any]] = {}
    for batch in listing if isinstance(listing, list) else []:
        problem = check_root_signature(v, trust, batch) if v is not None else None
        out[batch.get("batch_id")] = {
            "batch_id": batch.get("batch_id"), "size": batch.get("size"), "used": batch.get("used"),
            "merkle_root": batch.get("merkle_root"), "problem": problem,
        }
    return out


def _short(value: Any) -> str:
    return f"{value[:12]}…" if isinstance(value, str) and len(value) > 16 else str(value)


def judge_row(v: Verifiers, answer: Any, receipt: Any) -> list[dict[str, Any]]:
    """One row of a batch (`GET /api/arcade/seed-batches/{id}/rows/{index}`: `{batch, row}`)
    against the receipt that claims it (audit/batches.mjs's `judgeRow`): its revealed seed hashes
    to its commitment, its path leads to the batch's root, and it is that receipt's round."""
    batch = (answer or {}).get("batch") if isinstance(answer, dict) else None
    row = (answer or {}).get("row") if isinstance(answer, dict) else None
    if not isinstance(batch, dict) or not isinstance(row, dict):
        return [{"check": "batch_row", "why": "the seed batch row answer has no batch or no row"}]
    found: list[str] = []
    if row.get("state") != "open":
        try:
            derived = v.commitment(row.get("server_seed") or "")
            if derived != row.get("commitment"):
                found.append(f"revealed seed hashes to {derived}, not its commitment")
        except WasmError as error:
            found.append(f"revealed seed is not a seed ({error.message})")
    if row.get("state") == "settled" and not isinstance(row.get("bet_id"), int):
        found.append("settled without a bet id")
    why = check_inclusion(v, row.get("commitment"), row.get("index"), batch.get("size"), row.get("audit_path"),
                          batch.get("merkle_root"))
    if why:
        found.append(why)
    failures = [{"check": "batch_listing", "why": f"index {row.get('index')}: {w}"} for w in found]
    claim = ((receipt or {}).get("proofs") or {}).get("batch") or {}
    where = f"batch {batch.get('batch_id')} index {row.get('index')}"
    if (batch.get("batch_id"), row.get("index")) != (claim.get("batch_id"), claim.get("index")):
        return failures + [{"check": "batch_row", "why": f"batch {claim.get('batch_id')} lists no index {claim.get('index')}"}]
    if row.get("state") != "settled":
        return failures + [{"check": "batch_row", "why": f"{where} is {row.get('state')}, yet the feed settles it as bet {receipt.get('bet_id')}"}]
    if row.get("bet_id") != receipt.get("bet_id"):
        return failures + [{"check": "batch_row", "why": f"{where} is bet {row.get('bet_id')}, not bet {receipt.get('bet_id')}"}]
    for field in ("round_id", "commitment", "server_seed"):
        if row.get(field) != receipt.get(field):
            failures.append({"check": "batch_row", "why": f"{where} lists {field} {_short(row.get(field))}, the feed {_short(receipt.get(field))}"})
    return failures
