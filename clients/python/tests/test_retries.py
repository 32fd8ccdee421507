"""Retry-safe plays: the answer to a play is lost after the arcade settled it (the proxy closes
the connection instead of answering); the client asks again and gets the same receipt,
replayed, verified, and the round is charged once."""

from __future__ import annotations

import asyncio
import unittest

from proxy import Proxy
from stack import free_player, start_stack

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
        self.assertEqual({**played.receipt, "replayed": False}, lost[0]["body"], "the same receipt, marked replayed")  # type: ignore[attr-defined]
        plays = [e for e in self.proxy.log if e["method"] == "POST" and e["path"] == f"/api/arcade/{endpoint}"]
        self.assertEqual(len(plays), 2, "asked twice")
        self.assertEqual(after, before - wager + played.payout, "charged once")  # type: ignore[attr-defined]
        self.proxy.log.clear()

    def test_a_lost_dice_answer_sync(self) -> None:
        arcade = Arcade.connect(self.proxy.url, account=free_player(self.stack.base_url))
        before = arcade.balance()["chips"]
        self.proxy.log.clear()
        self.proxy.drop = lambda method, path: method == "POST" and path == "/api/arcade/dice"
        played = arcade.dice(wager=7, target=50)
        self.check_replayed("dice", before, 7, played, arcade.balance()["chips"])

    def test_a_lost_limbo_answer_async(self) -> None:
        async def main() -> None:
            async with await AsyncArcade.connect(self.proxy.url, account=free_player(self.stack.base_url)) as arcade:
                before = (await arcade.balance())["chips"]
                self.proxy.log.clear()
                self.proxy.drop = lambda method, path: method == "POST" and path == "/api/arcade/limbo"
                played = await arcade.limbo(wager=3, target="2.5")
                self.check_replayed("limbo", before, 3, played, (await arcade.balance())["chips"])
        asyncio.run(main())


if __name__ == "__main__":
    unittest.main()
