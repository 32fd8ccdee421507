"""Every round of every game is verified: 200 rounds across the four games (half through the
blocking client, half through the async one), each a pass of the shared verdict, with the
client-side cost of verification printed beside each round's total latency."""

from __future__ import annotations

import asyncio
import statistics
import unittest
from typing import Any

import requests
from eth_account.messages import encode_defunct
from stack import free_player, start_stack

from arcade_client import Arcade, ArcadeError, AsyncArcade, Round

CALLS: list[tuple[str, dict[str, Any]]] = [
    ("flip", {"wager": 1, "call": "heads"}),
    ("dice", {"wager": 1, "target": 50, "direction": "over"}),
    ("roulette", {"wager": 1, "bet": "straight", "number": 17}),
    ("roulette", {"wager": 1, "bet": "red"}),
    ("limbo", {"wager": 1, "target": "1.98"}),
]
ROUNDS_PER_CLIENT = 100
PER_PLAYER = 25


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class EveryRoundVerified(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.stack = start_stack(rate_limits=False)
        cls.rounds: list[tuple[str, Round]] = []

    @classmethod
    def tearDownClass(cls) -> None:
        cls.stack.stop()
        if not cls.rounds:
            return
        print("\nclient-side verification per round (Python, wasmtime) beside the round's total latency, ms:")
        for label in ("sync", "async"):
            rounds = [r for kind, r in cls.rounds if kind == label]
            verify = [r.timings["verify_ms"] for r in rounds]
            total = [r.timings["total_ms"] for r in rounds]
            print(f"  {label:5} {len(rounds)} rounds: verify median {statistics.median(verify):.2f} p95 {percentile(verify, 0.95):.2f}"
                  f" | total median {statistics.median(total):.2f} p95 {percentile(total, 0.95):.2f}"
                  f" | verify share {sum(verify) / sum(total):.1%}")

    def check(self, kind: str, endpoint: str, played: Round, before: Round | None) -> None:
        """`before`: the player's round before this one (None for its first)."""
        self.assertTrue(played.verified)
        # After a player's first round, each is the one the play before it opened: one request.
        self.assertEqual(played.chained, before is not None)
        self.assertNotIn("next_round", played.receipt, "an open round's id is kept apart from the receipt")
        self.assertEqual(played.verdict["verdict"], "pass", played.verdict["reason"])
        self.assertEqual(played.verdict["failures"], [])
        self.assertEqual(played.timings["tries"], 1)
        self.assertFalse(played.replayed)
        self.rounds.append((kind, played))

    def test_sync_rounds_all_verified(self) -> None:
        arcade = None
        before: Round | None = None
        for i in range(ROUNDS_PER_CLIENT):
            if i % PER_PLAYER == 0:
                arcade = Arcade.connect(self.stack.base_url, account=free_player(self.stack.base_url))
                before = None
            endpoint, call = CALLS[i % len(CALLS)]
            played = getattr(arcade, endpoint)(**call)
            self.check("sync", endpoint, played, before)
            before = played
        games = {r.game for kind, r in self.rounds if kind == "sync"}
        self.assertEqual(games, {"coinflip", "dice", "roulette", "limbo"})

    def test_async_rounds_all_verified(self) -> None:
        async def player(offset: int) -> list[Round]:
            account = free_player(self.stack.base_url)
            async with await AsyncArcade.connect(self.stack.base_url, account=account) as arcade:
                played = []
                for i in range(PER_PLAYER):
                    endpoint, call = CALLS[(offset + i) % len(CALLS)]
                    played.append(await getattr(arcade, endpoint)(**call))
                return played

        async def main() -> list[list[Round]]:
            return await asyncio.gather(*(player(p) for p in range(ROUNDS_PER_CLIENT // PER_PLAYER)))

        for rounds in asyncio.run(main()):
            for i, played in enumerate(rounds):
                self.check("async", played.game, played, rounds[i - 1] if i else None)
        self.assertEqual(sum(1 for kind, _ in self.rounds if kind == "async"), ROUNDS_PER_CLIENT)

    def test_a_successor_expired_by_a_rotation_is_refused_and_the_next_call_commits(self) -> None:
        account = free_player(self.stack.base_url)
        arcade = Arcade.connect(self.stack.base_url, account=account)
        first = arcade.flip(wager=1, call="heads")
        # Elsewhere, the owner rotates its statement: every open round of the address expires.
        url = self.stack.base_url
        statement = requests.get(f"{url}/api/arcade/auth-statement/{account.address}", timeout=10).json()["statement"]
        signature = "0x" + bytes(account.sign_message(encode_defunct(text=statement)).signature).hex()
        rotated = requests.post(f"{url}/api/arcade/auth/rotate", json={"address": account.address, "signature": signature}, timeout=10)
        self.assertEqual(rotated.status_code, 200, rotated.text)
        # Once its Play is signed, a call plays that round or nothing: it never re-rolls on another.
        with self.assertRaises(ArcadeError) as refused:
            arcade.dice(wager=1, target=50)
        self.assertEqual(refused.exception.code, "round_expired")
        self.assertEqual(arcade.balance()["chips"], first.balance, "the expired successor cost nothing")
        second = arcade.dice(wager=1, target=50)
        self.assertEqual(second.verdict["verdict"], "pass", second.verdict["reason"])
        self.assertFalse(second.chained, "played on a fresh commit")
        self.assertEqual(second.balance, first.balance - 1 + second.payout)
        self.assertTrue(arcade.flip(wager=1, call="tails").chained, "and the chain goes on from there")

if __name__ == "__main__":
    unittest.main()
