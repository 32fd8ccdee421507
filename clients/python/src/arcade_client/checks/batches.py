"""The published seed batches, each root signature checked once (audit/batches.mjs's
`signedBatches` and `checkRootSignature`)."""

from __future__ import annotations

from typing import Any

from .._wasm import Verifiers, WasmError
from .proofs import check_signature, expected_batch_message


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
