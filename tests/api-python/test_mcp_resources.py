"""The arcade's MCP resources, templates, prompts and completions read by PyPI's official MCP
SDK (mcp 2.x `Client`): in the handshake era (`mode="legacy"`, which negotiates 2025-11-25) and
in the stateless 2026-07-28 revision its default `mode="auto"` discovers.

A receipt read as `arcade://bets/{bet_id}` is REST's `/verify` answer and verifies; an open round
read by the id its owner holds is REST's answer, and another id is refused with REST's code; a
missing bet is an MCP error carrying `bet_not_found`.
"""

import asyncio
import hashlib
import hmac
import json
import secrets
import unittest
import urllib.request

from eth_account import Account
from eth_account.messages import encode_defunct
from mcp import Client, MCPError, types

from arcade_process import ArcadeProcess


class OfficialPythonMcpResources(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = ArcadeProcess()

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()

    def rest(self, path):
        with urllib.request.urlopen(f"{self.server.base_url}{path}") as response:
            return response.read().decode()

    def test_handshake_era_negotiates_2025_11_25(self):
        asyncio.run(self.session("legacy", "2025-11-25"))

    def test_stateless_revision_reads_the_same(self):
        asyncio.run(self.session("auto", "2026-07-28"))

    async def session(self, mode, revision):
        async with Client(f"{self.server.base_url}/api/mcp", mode=mode) as client:
            self.assertEqual(client.protocol_version, revision)
            await self.lists(client)
            await self.reads(client)
            await self.prompts(client)

    async def lists(self, client):
        resources = (await client.list_resources()).resources
        print(f"step: list resources: {', '.join(str(r.uri) for r in resources)}")
        self.assertEqual([str(r.uri) for r in resources], ["arcade://rules", "arcade://seed-batches"])
        templates = (await client.list_resource_templates()).resource_templates
        self.assertEqual([t.uri_template for t in templates],
                         ["arcade://bets/{bet_id}", "arcade://rounds/{round_id}",
                          "arcade://seed-batches/{batch_id}",
                          "arcade://seed-batches/{batch_id}/rows/{index}"])
        prompts = (await client.list_prompts()).prompts
        print(f"step: list templates: {', '.join(t.uri_template for t in templates)}; "
              f"prompts: {', '.join(p.name for p in prompts)}")
        self.assertEqual([p.name for p in prompts], ["play_and_verify", "audit_address"])

    async def text(self, client, uri):
        return (await client.read_resource(uri, cache_mode="bypass")).contents[0].text

    async def reads(self, client):
        rules = await self.text(client, "arcade://rules")
        self.assertTrue(rules.startswith(self.rest("/rules.md")))
        limits = json.loads(self.rest("/api/arcade/games"))["limits"]
        self.assertIn(f"| largest wager | {limits['max_wager_chips']} |", rules)
        self.assertIn(f"claim {limits['free_chips']} free chips once", rules)

        account = Account.create()
        await client.call_tool("arcade_free", {"address": account.address})
        balance = (await client.call_tool("arcade_balance", {"address": account.address})).structured_content
        signature = "0x" + account.sign_message(encode_defunct(text=balance["auth_statement"])).signature.hex().removeprefix("0x")
        round_ = (await client.call_tool("arcade_commit", {"address": account.address, "signature": signature})).structured_content
        open_round = await self.text(client, f"arcade://rounds/{round_['round_id']}")
        self.assertEqual(open_round, self.rest(f"/api/arcade/rounds/{round_['round_id']}"))
        self.assertEqual(json.loads(open_round)["state"], "open")
        with self.assertRaises(MCPError) as stranger:
            await client.read_resource(f"arcade://rounds/r_{secrets.token_hex(16)}")
        self.assertEqual(stranger.exception.error.data["code"], "round_not_found")

        played = (await client.call_tool("arcade_flip", {
            "round_id": round_["round_id"], "wager": 5, "call": "heads",
            "client_seed": secrets.token_hex(16)})).structured_content
        receipt = await self.text(client, f"arcade://bets/{played['bet_id']}")
        self.assertEqual(receipt, self.rest(f"/api/arcade/verify/{played['bet_id']}"))
        self.assertEqual((json.loads(receipt)["verdict"], json.loads(receipt)["mismatches"]),
                         ("consistent, not proven", []))
        outcome, payout = rederive_coinflip(json.loads(receipt))
        self.assertEqual(json.loads(receipt)["result"]["outcome"], outcome)
        self.assertEqual(json.loads(receipt)["payout"], payout)
        print(f"step: read arcade://bets/{played['bet_id']} and re-derived it here "
              f"(HMAC-SHA256 per fairness v1): {outcome}, payout {payout}")
        with self.assertRaises(MCPError) as missing:
            await client.read_resource("arcade://bets/999999")
        self.assertEqual(missing.exception.error.data["code"], "bet_not_found")

        bets = await client.complete(types.ResourceTemplateReference(uri="arcade://bets/{bet_id}"),
                                     {"name": "bet_id", "value": str(played["bet_id"])})
        self.assertIn(str(played["bet_id"]), bets.completion.values)

    async def prompts(self, client):
        play = await client.get_prompt("play_and_verify", {"game": "roulette", "wager": "3"})
        text = play.messages[0].content.text
        for name in ("arcade_roulette", "arcade_commit", "arcade://bets/", "arcade://rules"):
            self.assertIn(name, text)
        address = Account.create().address
        audit = (await client.get_prompt("audit_address", {"address": address})).messages[0].content.text
        self.assertIn(address, audit)
        self.assertIn("arcade://seed-batches/", audit)
        with self.assertRaises(MCPError) as bad:
            await client.get_prompt("play_and_verify", {"game": "poker", "wager": "3"})
        self.assertEqual(bad.exception.error.code, -32602)
        games = await client.complete(types.PromptReference(name="play_and_verify"), {"name": "game", "value": "li"})
        self.assertEqual(games.completion.values, ["limbo"])


def rederive_coinflip(receipt):
    """A coinflip receipt's outcome and payout from its seeds alone (docs: the fairness rules,
    v1): the commitment is SHA-256 of the seed's text; u0 and u1 are the first two big-endian
    u32 of HMAC-SHA256(seed, client_seed:nonce:0); heads iff u0 >= 2^31; a win returns
    wager * 198 / 100, its fractional chip paid iff u1 * 100 < (wager * 198 mod 100) * 2^32."""
    seed = receipt["server_seed"]
    if hashlib.sha256(seed.encode()).hexdigest() != receipt["commitment"]:
        raise AssertionError("the seed does not open the commitment")
    message = f"{receipt['client_seed']}:{receipt['nonce']}:0".encode()
    block = hmac.new(seed.encode(), message, hashlib.sha256).digest()
    u0, u1 = int.from_bytes(block[0:4], "big"), int.from_bytes(block[4:8], "big")
    outcome = "heads" if u0 >= 2**31 else "tails"
    if outcome != receipt["params"]["call"]:
        return outcome, 0
    whole, fraction = divmod(receipt["wager"] * 198, 100)
    return outcome, whole + (1 if u1 * 100 < fraction * 2**32 else 0)


if __name__ == "__main__":
    unittest.main()
