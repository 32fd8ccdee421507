"""A receipt against the commit answer its player holds (audit/verdicts.mjs's
`checkAgainstCommit`): the same round id, address, commitment and place in a seed batch. Two
Commitments the signer signed for one round that differ are `equivocation`; a differing
receipt is otherwise `commit_answer`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .._wasm import WasmError
from .js import field, is_address, same_address
from .proofs import check_signature, expected_commit_message, expected_messages

Failure = dict[str, Any]


def _place(answer: dict[str, Any]) -> str:
    batch = field(field(answer, "proofs"), "batch")
    return f"batch {batch.get('batch_id')} index {batch.get('index')}" if batch else "none"


def _lower(value: Any) -> Any:
    return value.lower() if isinstance(value, str) else value


def differences(commit: dict[str, Any], receipt: dict[str, Any]) -> list[str]:
    """What a commit answer and a receipt each name for the round, where they differ."""
    found = []
    for name, mine, theirs, same in (
        ("round_id", commit.get("round_id"), receipt.get("round_id"), commit.get("round_id") == receipt.get("round_id")),
        ("address", commit.get("address"), receipt.get("address"), same_address(commit.get("address"), receipt.get("address"))),
        ("commitment", commit.get("commitment"), receipt.get("commitment"),
         _lower(commit.get("commitment")) == _lower(receipt.get("commitment"))),
        ("seed", _place(commit), _place(receipt), _place(commit) == _place(receipt)),
    ):
        if not same:
            found.append(f"{name}: your commit answer {mine}, the receipt {theirs}")
    return found


def _commitment_problem(context: dict[str, Any], signed: Any, message: Callable[[], Any]) -> str | None:
    try:
        expected = message()
        if field(expected, "unsigned"):
            return "it carries no seed batch, so the house signed no Commitment"
        return check_signature(context["wasm"], signed, context["trust"], "Commitment", expected)
    except WasmError as error:
        return f"it cannot be turned into a signed message: {error.message}"


def check_against_commit(receipt: Any, answer: Any, context: dict[str, Any]) -> list[Failure]:
    """`[]` when the receipt is the round of the commit answer, else `[{check, why}]`."""
    if not isinstance(answer, dict) or not isinstance(receipt, dict):
        return [{"check": "commit_answer", "why": "not a commit answer and a receipt (objects, as the arcade answers them)"}]
    differ = differences(answer, receipt)
    if not differ:
        return []
    told = f"the receipt is not the round of your commit answer: {'; '.join(differ)}"
    v, trust = context.get("wasm"), context.get("trust")
    if v is None or not trust or not is_address(trust.get("signer")):
        return [{"check": "commit_answer", "why": f"{told} (signatures not checked: no signature module or signer)"}]
    answered = _commitment_problem(context, field(answer.get("proofs"), "commitment"), lambda: expected_commit_message(v, answer))
    if answered:
        return [{"check": "commit_answer", "why": f"{told} (the commit answer's own Commitment signature does not hold: {answered})"}]

    def received_message() -> Any:
        message = expected_messages(v, receipt, trust["marks"].get("signed")).get("commitment")
        return message if message is not None else {"unsigned": True}

    received = _commitment_problem(context, field(receipt.get("proofs"), "commitment"), received_message)
    if received or answer.get("round_id") != receipt.get("round_id"):
        return [{"check": "commit_answer", "why": told}]
    evidence = {"signer": trust["signer"], "round_id": receipt.get("round_id"),
                "commit_answer": answer["proofs"]["commitment"], "receipt": receipt["proofs"]["commitment"]}
    return [{
        "check": "equivocation",
        "why": f"the house signed two Commitments for round {receipt.get('round_id')}, both by {trust['signer']}: "
               f"{'; '.join(differ)}. One round takes one seed: the two signatures are proof, anyone can check, "
               "that the house changed the round after it committed",
        "evidence": evidence,
    }]
