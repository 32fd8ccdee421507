"""The checks' one contact with the wasm proof functions (audit/proofs.mjs): each check answers
None when it holds, or why it does not. The signer and domain always come from the trust (the
pinned signer, or the manifest's), never from the object checked."""

from __future__ import annotations

from typing import Any

from .._wasm import Verifiers, WasmError
from .js import falsy


def _failed(error: Exception) -> str:
    return f"{error.code}: {error.message}" if isinstance(error, WasmError) else str(error)


def check_signature(v: Verifiers, signed: Any, trust: dict[str, Any], primary_type: str, message: Any) -> str | None:
    """A signed object `{signature, typed_data}` against the expected signer, domain and message."""
    if falsy(signed):
        return f"{primary_type} signature missing"
    try:
        expected = {"signer": trust["signer"], "domain": trust["domain"], "primaryType": primary_type, "message": message}
        report = v.check_signed(signed, expected)
    except WasmError as error:
        return f"{primary_type} signature: {_failed(error)}"
    if report.get("valid"):
        return None
    problems = report.get("problems") or []
    return f"{primary_type} signature: {'; '.join(problems) if problems else report}"


def expected_messages(v: Verifiers, receipt: Any, marks: Any = None) -> dict[str, Any]:
    """The Commitment, Receipt and Play messages a receipt's fields call for (WasmError if none)."""
    return v.expected_receipt_messages(receipt, marks)


def expected_commit_message(v: Verifiers, answer: Any) -> dict[str, Any]:
    return v.expected_commit_message(answer)


def check_inclusion(v: Verifiers, commitment: Any, index: Any, size: Any, audit_path: Any, root: Any) -> str | None:
    """A commitment is leaf `index` of a batch of `size` under `root`, by its audit path."""
    try:
        proof = {"commitment": commitment, "index": index, "size": size, "audit_path": audit_path, "merkle_root": root}
        if v.verify_inclusion(proof):
            return None
        return f"seed commitment not in batch (root {str(root)[:12]}…) at index {index}"
    except WasmError as error:
        return f"inclusion proof: {_failed(error)}"


def expected_batch_message(v: Verifiers, batch: dict[str, Any]) -> dict[str, Any]:
    listed = {k: value for k, value in batch.items() if k != "rounds"}
    return v.expected_seed_batch_message(listed)
