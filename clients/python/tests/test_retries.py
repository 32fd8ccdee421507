"""Retry-safe plays and cashouts: the answer is lost after the arcade acted (the proxy closes
the connection instead of answering); the client asks again and gets the same receipt,
replayed, verified, and the round is charged once; the same cashout, paid once."""

from __future__ import annotations

import asyncio
import unittest

from proxy import Proxy
from eth_account import Account
from stack import DEMO_PAYER_KEY, free_player, start_stack

from arcade_client import Arcade, AsyncArcade


class LostAnswers(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.stack = start_stack()
        cls.proxy = Proxy(cls.stack.base_url)

    @classmethod
    def tearDownClass(cls) -> None:
        cls.proxy.stop()
        cls.stack.stop()

    def check_replayed(self, endpoint: str, before: int, wager: int, played: object, after: int) -> None:
        lost = [e for e in self.proxy.log if e["dropped"]]
        self.assertEqual(len(lost), 1, "an answer was dropped")
        self.assertFalse(lost[0]["body"]["replayed"], "the dropped answer settled the round")
        self.assertTrue(played.verified)  # type: ignore[attr-defined]
        self.assertTrue(played.replayed)  # type: ignore[attr-defined]
        self.assertEqual(played.timings["tries"], 2)  # type: ignore[attr-defined]
        settled = {k: v for k, v in lost[0]["body"].items() if k != "next_round"}
        self.assertEqual({**played.receipt, "replayed": False}, settled, "the same receipt, marked replayed")  # type: ignore[attr-defined]
        plays = [e for e in self.proxy.log if e["method"] == "POST" and e["path"] == f"/api/arcade/{endpoint}"]
        self.assertEqual(len(plays), 2, "asked twice")
        self.assertEqual(after, before - wager + played.payout, "charged once")  # type: ignore[attr-defined]
        # The replay carries the successor the lost answer opened (the play bore the statement
        # signature): the next round is played on it, with no commit.
        successor = lost[0]["body"].get("next_round")
        self.assertIsNotNone(successor, "the lost answer opened a successor")
        self.assertNotIn("next_round", played.receipt)  # type: ignore[attr-defined]
        self.successor = successor["round_id"]
        self.proxy.log.clear()

    def test_a_lost_dice_answer_sync(self) -> None:
        arcade = Arcade.connect(self.proxy.url, account=free_player(self.stack.base_url))
        before = arcade.balance()["chips"]
        self.proxy.log.clear()
        self.proxy.drop = lambda method, path: method == "POST" and path == "/api/arcade/dice"
        played = arcade.dice(wager=7, target=50)
        self.check_replayed("dice", before, 7, played, arcade.balance()["chips"])
        following = arcade.dice(wager=7, target=50)
        self.assertTrue(following.chained)
        self.assertEqual(following.receipt["round_id"], self.successor, "the successor the replay carried")
        self.assertEqual([e for e in self.proxy.log if e["path"] == "/api/arcade/commit"], [], "no commit for the successor")

    def test_a_lost_limbo_answer_async(self) -> None:
        async def main() -> None:
            async with await AsyncArcade.connect(self.proxy.url, account=free_player(self.stack.base_url)) as arcade:
                before = (await arcade.balance())["chips"]
                self.proxy.log.clear()
                self.proxy.drop = lambda method, path: method == "POST" and path == "/api/arcade/limbo"
                played = await arcade.limbo(wager=3, target="2.5")
                self.check_replayed("limbo", before, 3, played, (await arcade.balance())["chips"])
        asyncio.run(main())

    def test_a_lost_cashout_answer_is_the_same_cashout(self) -> None:
        arcade = Arcade.connect(self.proxy.url, account=Account.from_key(DEMO_PAYER_KEY), max_spend="0.01")
        arcade.buy_chips("micro")
        before = arcade.balance()["chips"]
        self.proxy.log.clear()
        self.proxy.drop = lambda method, path: method == "POST" and path == "/api/arcade/cashout"
        cashout = arcade.cashout(100)
        lost = [e for e in self.proxy.log if e["dropped"]]
        self.assertEqual(len(lost), 1, "an answer was dropped")
        sent = [e for e in self.proxy.log if e["method"] == "POST" and e["path"] == "/api/arcade/cashout"]
        self.assertEqual(len(sent), 2, "asked twice")
        self.assertEqual(cashout["cashout_id"], lost[0]["body"]["cashout_id"], "the same cashout")
        self.assertEqual(cashout["tx_hash"], lost[0]["body"]["tx_hash"], "one transfer")
        self.assertEqual(arcade.balance()["chips"], before - 100, "debited once")
        self.proxy.log.clear()


if __name__ == "__main__":
    unittest.main()
