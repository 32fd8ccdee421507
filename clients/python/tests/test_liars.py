"""A lying house is caught: a proxy between the client and the real arcade rewrites one field of
what the arcade answers, per case, and the client raises VerificationError naming the check that
failed (the shared verdict's `check`). The table of rewritten fields and errors is printed."""

from __future__ import annotations

import json
import unittest
from typing import Any

import requests

from proxy import Proxy
from stack import free_player, start_stack

from arcade_client import Arcade, ArcadeError, UnsupportedServerError, VerificationError

PLAYS = {"/api/arcade/flip", "/api/arcade/dice", "/api/arcade/roulette", "/api/arcade/limbo"}
TABLE: list[tuple[str, str, str]] = []


def on_play(change: Any) -> Any:
    def rewrite(method: str, path: str, answer: Any) -> Any:
        if method == "POST" and path in PLAYS:
            change(answer)
            return answer
        return None
    return rewrite


def flip_hex(text: str) -> str:
    return text[:-1] + ("1" if text.endswith("0") else "0")


def flip_signature(receipt: dict[str, Any]) -> None:
    signature = receipt["proofs"]["receipt"]["signature"]
    receipt["proofs"]["receipt"]["signature"] = signature[:10] + flip_hex(signature[10:12]) + signature[12:]


def flip_batch_roots(method: str, path: str, answer: Any) -> Any:
    """Every published root the house shows: the list's, a page's and a row's batch."""
    if not path.startswith("/api/arcade/seed-batches"):
        return None
    for batch in answer if isinstance(answer, list) else [answer.get("batch", answer)]:
        batch["merkle_root"] = flip_hex(batch["merkle_root"])
    return answer


def flip_path(receipt: dict[str, Any]) -> None:
    path = receipt["proofs"]["batch"]["audit_path"]
    path[0] = flip_hex(path[0])


PLAY_LIES = [
    ("the outcome (result.outcome)", on_play(lambda r: r["result"].update(outcome="tails" if r["result"]["outcome"] == "heads" else "heads")), "rederive"),
    ("the payout", on_play(lambda r: r.update(payout=r["payout"] + 1)), "rederive"),
    ("the server seed", on_play(lambda r: r.update(server_seed=flip_hex(r["server_seed"]))), "rederive"),
    ("the signature (proofs.receipt.signature)", on_play(flip_signature), "receipt_signature"),
    ("the batch root (every seed-batches answer, merkle_root)", flip_batch_roots, "batch_signature"),
    ("the audit path (proofs.batch.audit_path[0])", on_play(flip_path), "inclusion"),
]


class LyingHouse(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.stack = start_stack()
        cls.proxy = Proxy(cls.stack.base_url)

    @classmethod
    def tearDownClass(cls) -> None:
        cls.proxy.stop()
        cls.stack.stop()
        print("\nlying house (Python): field rewritten -> error (check)")
        for field, error, check in TABLE:
            print(f"  {field} -> {error} ({check})")

    def shared_player(self) -> Arcade:
        """One player for the tests that need no fresh one (free chips are limited per client)."""
        if getattr(type(self), "shared", None) is None:
            type(self).shared = Arcade.connect(self.proxy.url, account=free_player(self.stack.base_url))
        shared: Arcade = type(self).shared
        return shared

    def tearDown(self) -> None:
        self.proxy.rewrite = None
        self.proxy.refuse = None

    def test_each_rewritten_field_is_named(self) -> None:
        for field, rewrite, check in PLAY_LIES:
            with self.subTest(field=field):
                self.proxy.rewrite = rewrite
                try:
                    arcade = Arcade.connect(self.proxy.url, account=free_player(self.stack.base_url))
                    with self.assertRaises(VerificationError) as caught:
                        arcade.flip(wager=1, call="heads")
                finally:
                    self.proxy.rewrite = None
                self.assertEqual(caught.exception.check, check, str(caught.exception))
                TABLE.append((field, "VerificationError", caught.exception.check))

    def test_the_signer_in_a_later_manifest(self) -> None:
        arcade = Arcade.connect(self.proxy.url, account=free_player(self.stack.base_url))
        played = arcade.flip(wager=1, call="tails")
        self.assertTrue(played.verified)
        other = "0x000000000000000000000000000000000000dEaD"
        self.proxy.rewrite = lambda m, p, j: {**j, "signer": other} if p == "/api/arcade/manifest" else None
        with self.assertRaises(VerificationError) as caught:
            arcade.verify(played.bet_id)
        self.assertEqual(caught.exception.check, "signer")
        self.assertIn(other.lower(), str(caught.exception).lower())
        TABLE.append(("the signer in a later manifest", "VerificationError", caught.exception.check))
        self.assertIn("signer", arcade.audit()["checks"])
        with self.assertRaises(VerificationError) as refused:
            Arcade.connect(self.proxy.url, account=free_player(self.stack.base_url), pin={"signer": arcade.signer})
        self.assertEqual(refused.exception.check, "signer")
        self.proxy.rewrite = None
        self.assertTrue(arcade.verify(played.bet_id).verified, "the same bet, the honest manifest: verified")

    def test_a_later_round_of_a_batch_read_before_is_checked_against_its_own_row(self) -> None:
        """Every round reads its own row: a row the house misreports for the second round of a
        batch is caught, and so is a row shown under another root than the batch's first."""
        rows = "/api/arcade/seed-batches/"

        def row_of_another_bet(method: str, path: str, answer: Any) -> Any:
            if path.startswith(rows) and "/rows/" in path:
                answer["row"]["bet_id"] += 1
                return answer
            return None

        def another_root(method: str, path: str, answer: Any) -> Any:
            if path.startswith(rows) and "/rows/" in path:
                answer["batch"]["merkle_root"] = flip_hex(answer["batch"]["merkle_root"])
                return answer
            return None

        # Its first round reads its batch.
        arcade = self.shared_player()
        self.assertTrue(arcade.flip(wager=1, call="heads").verified)
        for lie, rewrite, check in [("a row naming another bet", row_of_another_bet, "batch_row"),
                                    ("a row under another root", another_root, "batch_listing")]:
            with self.subTest(lie=lie):
                self.proxy.rewrite = rewrite
                try:
                    with self.assertRaises(VerificationError) as caught:
                        arcade.flip(wager=1, call="heads")
                finally:
                    self.proxy.rewrite = None
                failures = caught.exception.verdict["failures"]
                self.assertEqual(caught.exception.check, check, str(caught.exception))
                if rewrite is another_root:
                    self.assertTrue(any(f["check"] == "batch_row" and "read for it before" in f["why"]
                                        for f in failures), failures)
                TABLE.append((f"{lie}, the batch's second round", "VerificationError", caught.exception.check))

    def test_a_rigged_round_whose_row_is_refused_still_fails_every_check_that_needs_no_row(self) -> None:
        """The house settles a round that does not re-derive and answers its row read 503: the
        round is still judged (no error about the read), and fails `rederive`; an honest round
        whose row is refused is not proven, never passed."""
        arcade = self.shared_player()
        self.proxy.refuse = lambda method, path: 503 if "/rows/" in path else None
        with self.assertRaises(VerificationError) as honest:
            arcade.flip(wager=1, call="heads")
        self.assertEqual(honest.exception.check, "not_proven", str(honest.exception))
        self.assertIn("could not check its proofs: the seed batch row", str(honest.exception))
        self.proxy.rewrite = on_play(lambda r: r.update(payout=r["payout"] + 1))
        with self.assertRaises(VerificationError) as rigged:
            arcade.flip(wager=1, call="heads")
        self.assertEqual(rigged.exception.check, "rederive", str(rigged.exception))
        TABLE.append(("the payout, the row read answered 503", "VerificationError", rigged.exception.check))

    def test_a_chained_play_answered_expired_after_it_settled_is_not_played_again(self) -> None:
        """The play settles, its answer is swapped for an unsigned `round_expired` (a house
        hiding a round it would lose, or a party in the middle): the call raises, one Play was
        sent, no round is played in its place, and the round that settled is charged once."""
        arcade = self.shared_player()
        first = arcade.flip(wager=1, call="heads")
        self.proxy.log.clear()
        self.proxy.answer = lambda method, path: (
            (409, {"code": "round_expired", "detail": "the round expired unplayed"}) if path == "/api/arcade/dice" else None)
        try:
            with self.assertRaises(ArcadeError) as refused:
                arcade.dice(wager=5, target=50)
        finally:
            self.proxy.answer = None
        self.assertEqual(refused.exception.code, "round_expired")
        plays = [e for e in self.proxy.log if e["method"] == "POST" and e["path"] in PLAYS]
        self.assertEqual(len(plays), 1, "one Play sent: no second round played in its place")
        self.assertEqual([e for e in self.proxy.log if e["path"] == "/api/arcade/commit"], [])
        round_id = json.loads(plays[0]["sent"])["round_id"]
        shown = requests.get(f"{self.stack.base_url}/api/arcade/rounds/{round_id}", timeout=10).json()
        self.assertEqual(shown["state"], "settled", "the play the answer hid did settle")
        self.assertEqual(arcade.balance()["chips"], first.balance - 5 + shown["receipt"]["payout"], "charged once")
        TABLE.append(("a chained play's answer swapped for round_expired", "ArcadeError", "round_expired, not played again"))

    def test_a_successor_naming_a_played_round_answered_with_its_old_receipt(self) -> None:
        arcade = self.shared_player()
        first = arcade.flip(wager=1, call="heads")
        old = first.receipt
        # A commit answer for that round, as the arcade answered it before the round was played.
        answered = {"round_id": old["round_id"], "address": old["address"], "commitment": old["commitment"],
                    "fairness_version": old["fairness_version"], "created_at": old["committed_at"],
                    "expires_at": "2099-01-01T00:00:00Z",
                    "proofs": {"batch": old["proofs"]["batch"], "commitment": old["proofs"]["commitment"]}}
        # The next answer names that round (committed, signed, long played) as the successor ...
        self.proxy.rewrite = on_play(lambda r: r.update(next_round=answered))
        arcade.flip(wager=1, call="heads")
        self.proxy.rewrite = None
        # ... and the play on it is answered with round 1's receipt, a replay: nothing new settled.
        self.proxy.answer = lambda method, path: (200, {**first.receipt, "replayed": True}) if path == "/api/arcade/flip" else None
        try:
            with self.assertRaises(VerificationError) as caught:
                arcade.flip(wager=1, call="heads")
        finally:
            self.proxy.answer = None
        self.assertEqual(caught.exception.check, "sent_play", str(caught.exception))
        self.assertIn("client_seed", str(caught.exception))
        TABLE.append(("a successor naming a played round, its old receipt answered", "VerificationError", caught.exception.check))

    def test_a_server_announcing_another_fairness_version_is_refused(self) -> None:
        self.proxy.rewrite = lambda m, p, j: {**j, "fairness_versions": [2]} if p == "/api/arcade/manifest" else None
        with self.assertRaises(UnsupportedServerError) as caught:
            Arcade.connect(self.proxy.url, account=free_player(self.stack.base_url))
        self.assertEqual(caught.exception.field, "fairness_versions")


if __name__ == "__main__":
    unittest.main()
