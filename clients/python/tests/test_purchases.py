"""Purchases are capped: a tier above what is left of the caller's cap is refused before anything
is signed (no signature asked of the account, no payment sent); within it, the official x402
client pays and the cap shrinks by the price."""

from __future__ import annotations

import asyncio
import unittest

from eth_account import Account
from proxy import Proxy
from stack import DEMO_PAYER_KEY, CountingAccount, start_stack

from arcade_client import Arcade, AsyncArcade, SpendingCapError, UnsupportedServerError


class CappedPurchases(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.stack = start_stack()
        cls.proxy = Proxy(cls.stack.base_url)

    @classmethod
    def tearDownClass(cls) -> None:
        cls.proxy.stop()
        cls.stack.stop()

    def setUp(self) -> None:
        self.proxy.log.clear()
        self.account = CountingAccount(Account.from_key(DEMO_PAYER_KEY))

    def purchases(self) -> list[dict[str, object]]:
        return [e for e in self.proxy.log if str(e["path"]).startswith("/api/arcade/chips")]

    def test_above_the_cap_refused_before_any_request_or_signature(self) -> None:
        arcade = Arcade.connect(self.proxy.url, account=self.account, max_spend="0.50")
        with self.assertRaises(SpendingCapError) as caught:
            arcade.buy_chips("medium")
        self.assertEqual((caught.exception.price, caught.exception.remaining), (1_000_000, 500_000))
        with self.assertRaises(SpendingCapError):
            Arcade.connect(self.proxy.url, account=self.account).buy_chips("micro")
        self.assertEqual(self.account.signatures, {"messages": 0, "typed_data": 0})
        self.assertEqual(self.purchases(), [], "nothing was asked of the arcade")

    def test_a_manifest_understating_the_price_the_challenge_price_is_refused(self) -> None:
        self.proxy.rewrite = lambda m, p, j: (
            {**j, "resources": [{**r, "amount": "10000"} for r in j["resources"]]} if p == "/api/arcade/manifest" else None)
        try:
            arcade = Arcade.connect(self.proxy.url, account=self.account, max_spend=50_000)
            with self.assertRaises(SpendingCapError) as caught:
                arcade.buy_chips("medium")
        finally:
            self.proxy.rewrite = None
        self.assertEqual(caught.exception.price, 1_000_000, "the price the arcade asked")
        self.assertEqual(self.account.signatures, {"messages": 0, "typed_data": 0})
        self.assertEqual(len(self.purchases()), 1, "the challenge was asked for")
        self.assertEqual([e for e in self.purchases() if "payment-signature" in e["headers"]], [], "no payment sent")

    def test_within_the_cap_bought_and_the_cap_shrinks(self) -> None:
        arcade = Arcade.connect(self.proxy.url, account=self.account, max_spend="0.15")
        chips_before = arcade.balance()["chips"]
        bought = arcade.buy_chips("small")
        self.assertEqual((bought["chips_credited"], bought["address"]), (1000, self.account.address))
        self.assertEqual(arcade.spendable, 50_000)
        self.assertEqual(self.account.signatures["typed_data"], 1, "one payment signed")
        with self.assertRaises(SpendingCapError):
            arcade.buy_chips("small")
        self.assertEqual(self.account.signatures["typed_data"], 1)
        self.assertEqual(arcade.balance()["chips"], chips_before + 1000)

    def test_async_within_the_cap_then_refused(self) -> None:
        async def main() -> None:
            async with await AsyncArcade.connect(self.proxy.url, account=self.account, max_spend="0.01") as arcade:
                bought = await arcade.buy_chips("micro")
                self.assertEqual(bought["chips_credited"], 100)
                self.assertEqual(arcade.spendable, 0)
                with self.assertRaises(SpendingCapError):
                    await arcade.buy_chips("micro")
        asyncio.run(main())
        self.assertEqual(self.account.signatures["typed_data"], 1)

    def test_a_manifest_stating_other_decimals_is_refused_at_connect(self) -> None:
        """A decimal cap is read at a dollar token's 6 decimals, never at the house's word."""
        self.proxy.rewrite = lambda m, p, j: (
            {**j, "token": {**j["token"], "decimals": 18}} if p == "/api/arcade/manifest" else None)
        try:
            with self.assertRaises(UnsupportedServerError) as caught:
                Arcade.connect(self.proxy.url, account=self.account, max_spend="0.05")
        finally:
            self.proxy.rewrite = None
        self.assertEqual(caught.exception.field, "token.decimals")
        self.assertEqual(self.account.signatures, {"messages": 0, "typed_data": 0})
        self.assertEqual(self.purchases(), [])

    def test_a_payment_whose_answer_is_lost_still_counts_against_the_cap(self) -> None:
        arcade = Arcade.connect(self.proxy.url, account=self.account, max_spend="0.15")
        self.proxy.drop = lambda method, path: path.startswith("/api/arcade/chips") and bool(
            self.proxy.log and "payment-signature" in self.proxy.log[-1]["headers"])
        with self.assertRaises(Exception):
            arcade.buy_chips("small")
        self.proxy.drop = None
        self.assertEqual(len([e for e in self.purchases() if e["dropped"]]), 1, "the paid answer was dropped")
        self.assertEqual(arcade.spendable, 50_000, "the signed payment was charged")
        with self.assertRaises(SpendingCapError):
            arcade.buy_chips("small")
        self.assertEqual(self.account.signatures["typed_data"], 1)

    def test_async_purchases_asked_for_together_take_turns(self) -> None:
        async def main() -> list[object]:
            async with await AsyncArcade.connect(self.proxy.url, account=self.account, max_spend="0.01") as arcade:
                return list(await asyncio.gather(*[arcade.buy_chips("micro") for _ in range(4)], return_exceptions=True))
        outcomes = asyncio.run(main())
        bought = [o for o in outcomes if isinstance(o, dict)]
        refused = [o for o in outcomes if isinstance(o, SpendingCapError)]
        self.assertEqual((len(bought), len(refused)), (1, 3), outcomes)
        self.assertEqual(self.account.signatures["typed_data"], 1)


if __name__ == "__main__":
    unittest.main()
