"""The 402's sign-in-with-x challenge signed with PyPI x402's official helpers
(`x402.extensions.sign_in_with_x`: `create_siwx_payload`, `encode_siwx_header`), on the dev chain
(a 402 needs one): the header alone commits and plays a round; after a rotate the same header is
refused as revoked (401) and moves nothing.
"""

import asyncio
import os
import sys
import unittest

import requests
from eth_account import Account
from eth_account.messages import encode_defunct
from x402.extensions.sign_in_with_x import (
    SIGN_IN_WITH_X,
    create_siwx_payload,
    encode_siwx_header,
    parse_siwx_header,
    verify_siwx_signature,
)

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "api-python"))
from arcade_process import ArcadeProcess  # noqa: E402


class OfficialSiwxHelpers(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = ArcadeProcess("dev")
        cls.base = cls.server.base_url

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()

    def post(self, path, body, headers=None):
        return requests.post(f"{self.base}{path}", json=body, headers=headers or {}, timeout=10)

    def chips(self, address):
        return requests.get(f"{self.base}/api/arcade/balance/{address}", timeout=10).json()["chips"]

    def free_chips(self, player):
        statement = requests.get(f"{self.base}/api/arcade/auth-statement/{player.address}", timeout=10).json()
        signature = player.sign_message(encode_defunct(text=statement["statement"])).signature.hex()
        free = self.post("/api/arcade/free", {"address": player.address, "signature": "0x" + signature.removeprefix("0x")})
        self.assertEqual(free.status_code, 200, free.text)

    async def header_from_the_402(self, player):
        """The 402's own challenge, completed with its first chain and signed by the helper."""
        response = requests.get(f"{self.base}/api/arcade/chips", timeout=10)
        self.assertEqual(response.status_code, 402, response.text)
        declared = response.json()["extensions"][SIGN_IN_WITH_X]
        chain = declared["supportedChains"][0]
        info = {**declared["info"], "chainId": chain["chainId"], "type": chain["type"]}
        payload = await create_siwx_payload(info, player, self.base)
        header = encode_siwx_header(payload)
        verified = await verify_siwx_signature(parse_siwx_header(header))
        self.assertTrue(verified.is_valid, verified.invalid_message)
        self.assertEqual(verified.payer, player.address)
        print(f"\nSIWX from the 402's challenge: {payload.address} on {payload.chain_id}, nonce {payload.nonce}")
        return {SIGN_IN_WITH_X: header}

    def test_commits_plays_and_is_revoked_by_a_rotate(self):
        player = Account.create()
        self.free_chips(player)
        header = asyncio.run(self.header_from_the_402(player))
        committed = self.post("/api/arcade/commit", {"address": player.address}, header)
        self.assertEqual(committed.status_code, 200, committed.text)
        played = self.post("/api/arcade/flip", {
            "round_id": committed.json()["round_id"], "client_seed": "siwx", "wager": 10, "call": "heads",
        }, header)
        self.assertEqual(played.status_code, 200, played.text)
        self.assertEqual(played.json()["balance"], 100 + played.json()["profit"])
        print(f"commit + flip with the header alone: balance {played.json()['balance']}")

        rotated = self.post("/api/arcade/auth/rotate", {"address": player.address}, header)
        self.assertEqual(rotated.status_code, 200, rotated.text)
        balance = self.chips(player.address)
        revoked = self.post("/api/arcade/commit", {"address": player.address}, header)
        self.assertEqual((revoked.status_code, revoked.json()["code"]), (401, "signature_revoked"), revoked.text)
        self.assertEqual(self.chips(player.address), balance, "nothing moved")
        print(f"after the rotate, the same header: {revoked.status_code} {revoked.json()['code']}")


if __name__ == "__main__":
    unittest.main()
