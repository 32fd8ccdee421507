"""One receipt's checks, each as audit/verdicts.mjs runs it: the game is the core's, the round
re-derives, the nonce is 0, the proofs hold (Commitment, Receipt and the player's Play
signatures, the seed's place in a signed batch), and the round is the player's."""

from __future__ import annotations

from typing import Any

from .._wasm import Verifiers, WasmError
from .js import falsy, field, is_address, is_number, same_address, show
from .proofs import check_inclusion, check_signature, expected_messages

Failure = dict[str, Any]

PLAY_UNSIGNED = (
    "the player did not sign this play (proofs.play is null): the house's signatures hold, "
    "but only the house says this commitment is the one the player was shown before the client seed was known"
)


def is_unsigned(proofs: Any) -> bool:
    """True when a receipt carries no proofs at all (missing, null, or every part null)."""
    if falsy(proofs):
        return True
    return all(field(proofs, part) is None for part in ("batch", "commitment", "receipt"))


def rederive(v: Verifiers, receipt: Any) -> tuple[dict[str, Any] | None, dict[str, Any] | None, str | None]:
    """`(report, round, why)`: the core's report, the round it derives, why it differs (or None)."""
    try:
        report = v.verify(receipt)
    except WasmError as error:
        return None, None, f"does not re-derive ({error.code}: {error.message})"
    derived = report["derived"]
    round_ = {
        "bet_id": receipt.get("bet_id"), "game": receipt.get("game"), "params": receipt.get("params"),
        "wager": receipt.get("wager"), "payout": derived["payout"], "house_agent": receipt.get("house_agent") is True,
        "result": derived["result"],
    }
    if report["verified"]:
        return report, round_, None
    differs = "; ".join(f"{m['field']} claimed {m['claimed']}, derives {m['derived']}" for m in report["mismatches"])
    return report, round_, f"re-derivation differs: {differs}"


def check_game(v: Verifiers, receipt: Any) -> list[Failure]:
    """The receipt's game is one the core lists, or `[{check: 'game'}]`."""
    game = field(receipt, "game")
    if not isinstance(game, str):
        return []
    known = v.games()
    if game in known:
        return []
    return [{"check": "game", "why": f"unknown game {show(game)}; this verifier knows {', '.join(known)}"}]


def check_nonce(receipt: Any) -> list[Failure]:
    """Arcade rounds use nonce 0: no Play names the nonce."""
    nonce = receipt.get("nonce", 0) if isinstance(receipt, dict) else 0
    if is_number(nonce) and nonce == 0:
        return []
    return [{"check": "nonce", "why": f"the receipt's nonce is {show(nonce)}; arcade rounds use nonce 0 (no Play names the "
             "nonce, so another one is the house's choice, made after it saw the client seed)"}]


def check_player(receipt: Any, player: Any) -> list[Failure]:
    """The round is the address the reader gave as the player's (none given: nothing to check)."""
    if player is None or player == "":
        return []
    if not is_address(player):
        return [{"check": "player", "why": f"{show(player)} is not an address (0x and 40 hex digits)"}]
    address = field(receipt, "address")
    if same_address(address, player):
        return []
    return [{"check": "player", "why": f"the round is {address or '(no address)'}'s, not {player}, the address given as the "
             "player's: a round moved to another address proves nothing about yours"}]


def _check_play(v: Verifiers, trust: dict[str, Any], receipt: dict[str, Any], expected: dict[str, Any]) -> dict[str, Any]:
    """The player's Play against the one the receipt's fields call for: `{failure}`, `{unproven}` or `{}`."""
    play = receipt["proofs"].get("play")
    if play is None:
        return {"unproven": PLAY_UNSIGNED}
    if falsy(expected.get("play")):
        return {"unproven": "the player's Play signature was not checked: this signature module cannot rebuild a Play"}
    player = {"signer": receipt.get("address"), "domain": trust["domain"]}
    why = check_signature(v, play, player, "Play", expected["play"])
    return {"failure": {"check": "play_signature", "why": why}} if why else {}


def check_proofs(context: dict[str, Any], receipt: dict[str, Any]) -> tuple[list[Failure], str | None]:
    """What a receipt's proofs say: `(failures, unproven)`."""
    v, trust, batches = context["wasm"], context["trust"], context.get("batches") or {}
    found: list[Failure] = []
    proofs = receipt["proofs"]
    batch, commitment, signed = proofs.get("batch"), proofs.get("commitment"), proofs.get("receipt")
    if falsy(batch):
        found.append({"check": "proofs", "why": "signed, but names no seed batch"})
    unproven: str | None = None
    try:
        expected: dict[str, Any] | None = expected_messages(v, receipt, trust["marks"].get("signed"))
    except WasmError as error:
        expected = None
        found.append({"check": "proofs", "why": f"the receipt cannot be turned into signed messages: {error.message}"})
    if expected is not None:
        for check, primary, obj, message in (
            ("commitment_signature", "Commitment", commitment, expected.get("commitment")),
            ("receipt_signature", "Receipt", signed, expected.get("receipt")),
        ):
            why = check_signature(v, obj, trust, primary, message) if not falsy(message) else f"{primary}: no message expected (unsigned)"
            if why:
                found.append({"check": check, "why": why})
        play = _check_play(v, trust, receipt, expected)
        if "failure" in play:
            found.append(play["failure"])
        unproven = play.get("unproven")
    if falsy(batch):
        return found, unproven
    published = batches.get(batch.get("batch_id"))
    if not published and context.get("unreachable"):
        # A batch the arcade did not answer for is not checked here, nor failed.
        return found, unproven
    return found + _check_batch_place(v, receipt, batch, published), unproven


def _check_batch_place(v: Verifiers, receipt: dict[str, Any], batch: dict[str, Any], published: Any) -> list[Failure]:
    """The seed's place in its batch: published, its root signed, its audit path to that root."""
    if not published:
        return [{"check": "batch", "why": f"seed batch {batch.get('batch_id')} is not published"}]
    found: list[Failure] = []
    if published["problem"]:
        found.append({"check": "batch_signature", "why": f"seed batch {batch.get('batch_id')}: {published['problem']}"})
    if batch.get("size") != published["size"]:
        found.append({"check": "inclusion", "why": f"batch size {batch.get('size')}, published {published['size']}"})
    why = check_inclusion(v, receipt.get("commitment"), batch.get("index"), published["size"], batch.get("audit_path"),
                          published["merkle_root"])
    if why:
        found.append({"check": "inclusion", "why": why})
    return found
