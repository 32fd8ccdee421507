"""Whom to believe, read once from the manifest (audit/trust.mjs): the house's signer (the pinned
one when there is one), its EIP-712 domain, and the signed marks. A manifest naming another
signer than the pinned one, or marks whose signature does not hold, is a problem every verdict
relying on the manifest fails with."""

from __future__ import annotations

from typing import Any

from .._wasm import Verifiers
from .js import field, is_address, is_safe_integer, same_address
from .proofs import check_signature

STRICT_MARKS: dict[str, Any] = {"signed_from": 1, "house_agent_signed_from": None, "published": False}


def _is_bet_id(value: Any) -> bool:
    return is_safe_integer(value) and value >= 1


def check_marks(v: Verifiers, trust: dict[str, Any], marks: Any) -> str | None:
    """Why the manifest's `signed_marks` do not hold (None when they do)."""
    if not isinstance(marks, dict):
        return "signed_marks is not an object"
    if not _is_bet_id(marks.get("signed_from")) or not _is_bet_id(marks.get("house_agent_signed_from")):
        return "signed_marks: signed_from and house_agent_signed_from must be bet ids (positive integers)"
    message = {"signed_from": marks["signed_from"], "house_agent_signed_from": marks["house_agent_signed_from"]}
    return check_signature(v, marks, trust, "SignedMarks", message)


def read_trust(v: Verifiers | None, manifest: Any, pin: dict[str, Any] | None = None) -> dict[str, Any]:
    """The trust a manifest gives under the reader's pins (`signer`, `marks`):
    `{signer, published_signer, pinned, domain, marks, problems: [{check, why}]}`."""
    pin = pin or {}
    published = field(manifest, "signer")
    pinned = pin.get("signer")
    trust: dict[str, Any] = {
        "signer": pinned if pinned is not None else published,
        "published_signer": published,
        "pinned": pinned is not None,
        "domain": field(manifest, "signing_domain"),
        "marks": STRICT_MARKS,
        "problems": [],
    }

    def problem(check: str, why: str) -> None:
        trust["problems"].append({"check": check, "why": why})

    if pinned is not None and not same_address(published, pinned):
        problem("signer", f"the manifest names the signer {published or '(none)'}, not the pinned {pinned}")
    if not is_address(trust["signer"]):
        problem("signer", "no signer to check against: the manifest publishes none and none is pinned")
    marks = field(manifest, "signed_marks")
    if marks is not None:
        why = check_marks(v, trust, marks) if v is not None and is_address(trust["signer"]) else None
        if why:
            problem("marks", why)
        else:
            trust["marks"] = {
                "signed_from": marks["signed_from"], "house_agent_signed_from": marks["house_agent_signed_from"],
                "published": True, "signed": marks,
            }
    _check_moved(trust, pin.get("marks"), problem)
    return trust


def _check_moved(trust: dict[str, Any], pinned: Any, problem: Any) -> None:
    marks = trust["marks"]
    if not pinned or not marks["published"]:
        return
    if pinned["signed_from"] != marks["signed_from"] or pinned["house_agent_signed_from"] != marks["house_agent_signed_from"]:
        problem("marks", f"the signed marks moved: signed_from {pinned['signed_from']} → {marks['signed_from']}, "
                f"house_agent_signed_from {pinned['house_agent_signed_from']} → {marks['house_agent_signed_from']}")
