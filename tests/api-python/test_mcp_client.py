"""The arcade's MCP endpoint spoken to by PyPI's official MCP SDK (mcp 2.x `Client`).

Starts `$ARCADE_BIN serve` on a fresh SQLite file, lists the tools, claims free chips, signs the
auth statement with eth_account, plays a round of each game, verifies the receipts, and checks
that an error comes back as a tool result with the REST code.
"""

import asyncio
import secrets
import unittest

from eth_account import Account
from eth_account.messages import encode_defunct
from mcp import Client, types

from arcade_process import ArcadeProcess

TOOLS = sorted([
    "arcade_balance", "arcade_buy_chips", "arcade_cashout", "arcade_commit", "arcade_dice", "arcade_flip",
    "arcade_free", "arcade_games", "arcade_house", "arcade_limbo", "arcade_rotate", "arcade_roulette",
    "arcade_round", "arcade_siwx_challenge", "arcade_verify",
])


class OfficialPythonMcpClient(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = ArcadeProcess()

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()

    def test_plays_every_game_through_the_tools(self):
        asyncio.run(self.play())

    def test_the_stateless_revision_is_served_too(self):
        asyncio.run(self.stateless())

    def test_the_session_ends_as_the_client_expects(self):
        # The client ends its session with DELETE on leaving, and takes only 200 or 204 (it logs
        # "Session termination failed: 202" otherwise).
        with self.assertLogs(level="INFO") as logs:
            asyncio.run(self.session_ended())
        said = [record.getMessage() for record in logs.records]
        deletes = [line for line in said if line.startswith("HTTP Request: DELETE")]
        self.assertEqual(len(deletes), 1, said)
        self.assertIn('"HTTP/1.1 200 OK"', deletes[0])
        self.assertFalse([line for line in said if "termination failed" in line], said)
        print(f"step: {deletes[0]}")

    async def session_ended(self):
        async with Client(f"{self.server.base_url}/api/mcp", mode="legacy") as client:
            self.assertEqual(len((await client.list_tools()).tools), len(TOOLS))

    async def stateless(self):
        # 2026-07-28: no initialize, no session; each request carries its own protocol metadata.
        async with Client(f"{self.server.base_url}/api/mcp", mode="2026-07-28") as client:
            self.assertEqual(len((await client.list_tools()).tools), len(TOOLS))
            games = await client.call_tool("arcade_games", {})
            self.assertFalse(games.is_error, games.content)
            self.assertEqual(len(games.structured_content["games"]), 4)

    async def play(self):
        account = Account.create()
        async with Client(f"{self.server.base_url}/api/mcp") as client:
            tools = (await client.list_tools()).tools
            self.assertEqual(sorted(t.name for t in tools), TOOLS)
            print(f"step: list tools ({len(tools)}): {', '.join(t.name for t in tools)}")
            # Every tool declares its result (or, with is_error, the error body); the client
            # validates each result below against it, and refuses one that does not match.
            for tool in tools:
                self.assertEqual(tool.output_schema["type"], "object", tool.name)
                # The result or the error body; a paid tool adds the x402 challenge its 402 answers.
                paid = tool.name == "arcade_buy_chips"
                self.assertEqual(len(tool.output_schema["anyOf"]), 3 if paid else 2, tool.name)

            called = set()

            async def answer(name, arguments):
                # The client validates the structured result against the tool's outputSchema.
                result = await client.call_tool(name, arguments)
                self.assertIsInstance(result.structured_content, dict)
                called.add(name)
                said = f"error {result.structured_content.get('code')}" if result.is_error else "ok"
                print(f"step: call {name}: {said}, structured_content valid against its outputSchema")
                return result

            async def call(name, arguments):
                result = await answer(name, arguments)
                self.assertFalse(result.is_error, f"{name}: {result.content}")
                return result.structured_content

            await call("arcade_games", {})
            await call("arcade_house", {})

            self.assertEqual((await call("arcade_free", {"address": account.address}))["granted"], 100)
            balance = await call("arcade_balance", {"address": account.address})
            signed = account.sign_message(encode_defunct(text=balance["auth_statement"]))
            signature = "0x" + signed.signature.hex().removeprefix("0x")
            chips = 100
            for tool, bet in [("arcade_flip", {"call": "tails"}),
                              ("arcade_dice", {"target": 30, "direction": "under"}),
                              ("arcade_roulette", {"bet": "straight", "number": 17}),
                              ("arcade_limbo", {"target": "1.50"})]:
                round_ = await call("arcade_commit", {"address": account.address, "signature": signature})
                await call("arcade_round", {"round_id": round_["round_id"]})
                played = await call(tool, {"round_id": round_["round_id"], "wager": 5,
                                           "client_seed": secrets.token_hex(16), **bet})
                chips += played["profit"]
                self.assertEqual(played["balance"], chips)
                verified = await call("arcade_verify", {"bet_id": played["bet_id"]})
                self.assertEqual((verified["verdict"], verified["mismatches"]), ("consistent, not proven", []))
            self.assertEqual((await call("arcade_balance", {"address": account.address}))["chips"], chips)
            await call("arcade_siwx_challenge", {"address": account.address})
            # No chain here: buying and cashing out answer their refusals, validated as well.
            required = await answer("arcade_buy_chips", {"tier": "small"})
            self.assertTrue(required.is_error)
            unpaid = await answer("arcade_cashout", {"address": account.address, "chips": 500,
                                                     "signature": signature})
            self.assertTrue(unpaid.is_error)
            unlike = types.CallToolResult(content=[], structured_content={"chips": "many"})
            with self.assertRaisesRegex(RuntimeError, "Invalid structured content"):
                await client.session.validate_tool_result("arcade_balance", unlike)

            spent = await client.call_tool("arcade_flip", {"round_id": round_["round_id"], "wager": 5,
                                                           "client_seed": "again", "call": "heads"})
            self.assertTrue(spent.is_error)
            self.assertEqual(spent.structured_content["code"], "round_spent")
            await call("arcade_rotate", {"address": account.address, "signature": signature})
            self.assertEqual(sorted(called), TOOLS, "every listed tool was called")


if __name__ == "__main__":
    unittest.main()
