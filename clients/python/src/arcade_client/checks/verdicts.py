"""One round's verdict, as every verifier of the arcade gives it (audit/verdicts.mjs's
`judgeRound`): `pass` (re-derived by the wasm core, signed by the pinned signer, its seed in a
batch that signer signed, its play signed by its player), `consistent, not proven`, or `fail`
with `check` the first failed check and `failures` all of them, in the same order."""

from __future__ import annotations

from typing import Any

from .commit import check_against_commit
from .js import field, is_address, is_safe_integer
from .rounds import PLAY_UNSIGNED, check_game, check_nonce, check_player, check_proofs, is_unsigned, rederive

PASS = "pass"
NOT_PROVEN = "consistent, not proven"
FAIL = "fail"
FROM_HOUSE = "house"
FROM_READER = "reader"


def _judge_proofs(context: dict[str, Any], receipt: dict[str, Any], source: str) -> dict[str, Any]:
    """`{proven, unproven, failures}`: what the proofs say of a re-derived receipt."""
    trust = context.get("trust")

    def unproven(why: str) -> dict[str, Any]:
        return {"proven": False, "unproven": why, "failures": []}

    if is_unsigned(receipt.get("proofs")):
        mark: Any = trust["marks"].get("signed_from") if trust else None
        mark = 1 if mark is None else mark
        bet_id = receipt.get("bet_id")
        if source == FROM_HOUSE and not (is_safe_integer(bet_id) and bet_id < mark):
            rule = f"the signed mark: every bet from {mark} on" if trust and trust["marks"]["published"] \
                else "no signed marks are published, so every bet"
            return {"proven": False, "unproven": None,
                    "failures": [{"check": "proofs", "why": f"bet {bet_id} carries no proofs, yet by {rule} must carry them"}]}
        return unproven(
            f"unsigned (before signing began: below the signed mark {mark}): re-derived, but the house signed nothing for it"
            if source == FROM_HOUSE else
            "no house proofs: anyone can build a receipt that re-derives; only the house's signatures and seed batch prove one")
    if context.get("wasm") is None:
        return unproven("its proofs could not be checked here: the signature module is not available")
    unreachable = context.get("unreachable")
    could_not = f"could not check its proofs: {unreachable}; check it again once the arcade answers" if unreachable else None
    if not trust or not is_address(trust.get("signer")):
        return unproven(could_not or "its proofs were not checked: there is no signer to check them against")
    failures, why = check_proofs(context, receipt)
    if could_not:
        # What the arcade did not answer is not proven; every proof it did answer is still checked.
        return {"proven": False, "unproven": could_not, "failures": failures}
    return {"proven": why is None, "unproven": why, "failures": failures}


def _reason(verdict: str, failures: list[dict[str, Any]], unproven: str | None, receipt: Any, trust: Any, player: Any) -> str:
    if verdict == FAIL:
        return "; ".join(f"{f['check']}: {f['why']}" for f in failures)
    if verdict == NOT_PROVEN:
        return unproven or ""
    batch = receipt["proofs"]["batch"]
    pinned = " (pinned)" if trust["pinned"] else ""
    yours = ", the address you gave" if player else ""
    return (f"Re-derived by the wasm core; Commitment and Receipt signed by {trust['signer']}{pinned}; "
            f"its seed is index {batch['index']} of seed batch {batch['batch_id']}, whose root the same signer signed; "
            f"its play signed by its player {receipt['address']}{yours}, naming that commitment before the outcome existed.")


def judge_round(context: dict[str, Any], receipt: Any, *, asked: Any = None, source: str = FROM_HOUSE,
                trust_problems: bool = True, also: list[dict[str, Any]] | None = None, doubt: str | None = None,
                player: str | None = None, commit: Any = None) -> dict[str, Any]:
    """Judges one receipt; `context` is `{wasm, trust, batches}` (the module, `read_trust`'s trust,
    `signed_batches`). The arguments are judgeRound's options, `source` its `from`."""
    trust = context.get("trust")
    failures: list[dict[str, Any]] = []
    bet_id = field(receipt, "bet_id")
    if asked is not None and bet_id != asked:
        failures.append({"check": "bet_id", "why": f"the answer is {'no bet' if bet_id is None else f'bet {bet_id}'}, not bet {asked} as asked"})
    if trust_problems:
        failures.extend(trust["problems"] if trust else [])
    game = check_game(context["wasm"], receipt)
    failures.extend(game)
    report, round_, why = (None, None, None) if game else rederive(context["wasm"], receipt)
    if why:
        failures.append({"check": "rederive", "why": why})
    failures.extend(check_nonce(receipt))
    proof = _judge_proofs(context, receipt if isinstance(receipt, dict) else {}, source)
    failures.extend(proof["failures"] + (also or []) + check_player(receipt, player))
    if commit is not None:
        failures.extend(check_against_commit(receipt, commit, context))
    doubted = not failures and proof["proven"] and doubt is not None
    verdict = FAIL if failures else PASS if proof["proven"] and not doubted else NOT_PROVEN
    unproven = doubt if doubted else proof["unproven"]
    return {
        "verdict": verdict, "bet_id": asked if asked is not None else bet_id,
        "signer": trust["signer"] if trust else None, "signer_pinned": trust["pinned"] if trust else False,
        "player": player or None, "check": failures[0]["check"] if failures else None, "failures": failures,
        "reason": _reason(verdict, failures, unproven, receipt, trust, player),
        "unsigned": is_unsigned(field(receipt, "proofs")),
        "unsigned_play": verdict == NOT_PROVEN and unproven == PLAY_UNSIGNED,
        "could_not_check": verdict == NOT_PROVEN and bool(context.get("unreachable")) and unproven == proof["unproven"]
        and not is_unsigned(field(receipt, "proofs")),
        "doubted": doubted, "proofs_hold": proof["proven"] and not proof["failures"],
        "round": round_, "report": report,
    }


def refused_verdict(check: str, why: str, bet_id: Any = None, trust: Any = None) -> dict[str, Any]:
    """A verdict that no receipt could be judged for (the arcade's answer was refused)."""
    return {
        "verdict": FAIL, "bet_id": bet_id, "signer": trust["signer"] if trust else None,
        "signer_pinned": trust["pinned"] if trust else False, "player": None, "check": check,
        "failures": [{"check": check, "why": why}], "reason": f"{check}: {why}", "unsigned": False,
        "unsigned_play": False, "could_not_check": False, "doubted": False, "proofs_hold": False, "round": None,
        "report": None,
    }
