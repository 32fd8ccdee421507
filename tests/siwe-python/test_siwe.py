"""The auth statement read by PyPI's `siwe` (an ABNF parser of EIP-4361), signed with
eth_account, and the revocation flow end to end: sign, play, rotate, the old signature refused
as revoked, the new one working."""

import os
import sys
import unittest
from urllib.parse import urlparse

import requests
from eth_account import Account
from eth_account.messages import encode_defunct
from siwe import SiweMessage

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "api-python"))
from arcade_process import ArcadeProcess  # noqa: E402


def sign(account, text):
    signed = account.sign_message(encode_defunct(text=text))
    return "0x" + signed.signature.hex().removeprefix("0x")


class SignInWithEthereumTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = ArcadeProcess("serve")
        cls.base = cls.server.base_url

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()

    def statement(self, address):
        answer = requests.get(f"{self.base}/api/arcade/auth-statement/{address}", timeout=30)
        answer.raise_for_status()
        return answer.json()

    def post(self, path, body):
        return requests.post(f"{self.base}{path}", json=body, timeout=30)

    def test_the_statement_parses_and_its_signature_verifies(self):
        account = Account.create()
        answer = self.statement(account.address.lower())
        self.assertEqual((answer["format"], answer["scheme"], answer["generation"]), ("eip4361", "eip191", 0))
        message = SiweMessage.from_message(answer["statement"])  # the ABNF parser
        host = urlparse(self.base).netloc
        self.assertEqual(message.domain, host)
        self.assertEqual(message.address, account.address)
        self.assertEqual(message.uri, self.base)
        self.assertEqual(str(message.version), "1")
        self.assertEqual(message.chain_id, 84532)
        self.assertIn("authorizes no payment", message.statement)
        self.assertEqual(message.prepare_message(), answer["statement"], "written back exactly")
        signature = sign(account, answer["statement"])
        message.verify(signature, domain=host, nonce=message.nonce)  # raises if it does not verify

    def test_rotating_revokes_the_old_signature(self):
        account = Account.create()
        address = account.address
        first = sign(account, self.statement(address)["statement"])
        self.assertEqual(self.post("/api/arcade/free", {"address": address, "signature": first}).status_code, 200)
        committed = self.post("/api/arcade/commit", {"address": address, "signature": first})
        self.assertEqual(committed.status_code, 200, committed.text)
        played = self.post("/api/arcade/flip", {"round_id": committed.json()["round_id"], "client_seed": "py",
                                                "wager": 5, "call": "heads", "signature": first})
        self.assertEqual(played.status_code, 200, played.text)

        rotated = self.post("/api/arcade/auth/rotate", {"address": address, "signature": first})
        self.assertEqual(rotated.status_code, 200, rotated.text)
        fresh = rotated.json()["auth_statement"]
        self.assertEqual(fresh["generation"], 1)
        self.assertEqual(SiweMessage.from_message(fresh["statement"]).address, address)

        refused = self.post("/api/arcade/commit", {"address": address, "signature": first})
        self.assertEqual((refused.status_code, refused.json()["code"]), (401, "signature_revoked"))
        second = sign(account, fresh["statement"])
        again = self.post("/api/arcade/commit", {"address": address, "signature": second})
        self.assertEqual(again.status_code, 200, again.text)


if __name__ == "__main__":
    unittest.main()
