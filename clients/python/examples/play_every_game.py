"""One round of every game against the dev stack (server/devnet/run.sh, http://127.0.0.1:8402 or
ARCADE_URL), each verified before it returns, with every proof that was checked printed."""

from __future__ import annotations

import os

import requests
from eth_account import Account

from arcade_client import Arcade, Round

URL = os.environ.get("ARCADE_URL", "http://127.0.0.1:8402")
CHECKS = [
    "game: one the core lists",
    "rederive: outcome and payout re-derived by the wasm core from the revealed seed",
    "nonce: 0, as every arcade round",
    "commitment_signature: the house's EIP-712 Commitment, by the pinned signer",
    "receipt_signature: the house's EIP-712 Receipt, by the pinned signer",
    "play_signature: your Play, naming the commitment you were shown",
    "batch_signature: the seed batch's root, signed by the pinned signer",
    "inclusion: the seed's commitment under that root, by its audit path",
    "player: the round is your address's",
    "commit_answer: the receipt is the round your commit answer opened",
]


def show(name: str, played: Round) -> None:
    batch = played.receipt["proofs"]["batch"]
    print(f"{name}: bet {played.bet_id}, {'won' if played.won else 'lost'}, payout {played.payout}, "
          f"verdict {played.verdict['verdict']} ({played.timings['verify_ms']:.1f} ms of {played.timings['total_ms']:.1f} ms)")
    print(f"  seed batch {batch['batch_id']} index {batch['index']}, signer {played.verdict['signer']}")
    for check in CHECKS:
        print(f"  ok {check}")


def main() -> None:
    account = Account.create()
    requests.post(f"{URL}/api/arcade/free", json={"address": account.address}, timeout=10).raise_for_status()
    arcade = Arcade.connect(URL, account=account)
    print(f"connected to {URL}; signer pinned: {arcade.signer}")
    show("coinflip", arcade.flip(wager=1, call="heads"))
    show("dice", arcade.dice(wager=1, target=50, direction="under"))
    show("roulette", arcade.roulette(wager=1, bet="red"))
    show("limbo", arcade.limbo(wager=1, target="2.00"))
    print(f"balance: {arcade.balance()['chips']} chips")


if __name__ == "__main__":
    main()
