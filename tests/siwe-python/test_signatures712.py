"""The house's EIP-712 signatures (docs/proofs.md) recovered by eth_account from what the live
server sends: a commit answer's Commitment and a settled receipt's Receipt and Commitment
recover to the manifest's `signer`, a tampered field to another address. The signed marks
recover to the signer, and from them on a receipt signs `house_agent` (a house wallet's true, a
player's false), each type exactly the one docs/proofs.md lists. And the secrets stay
secret: with a random `seeds.secret` and `signing.key`, neither (nor the key without 0x) shows
in any GET answer or in the server's output, and `signer` is that key's address."""

import copy
import hmac
import os
import secrets
import sys
import time
import unittest
from unittest import mock

import requests
from eth_account import Account
from eth_account.messages import encode_defunct, encode_typed_data

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "api-python"))
from arcade_process import ArcadeProcess  # noqa: E402


# The type strings of docs/proofs.md.
RECEIPT_BEFORE_HOUSE_AGENT = (
    "Receipt(string round_id,uint256 bet_id,address player,string game,bytes32 commitment,bytes32 server_seed,"
    "string client_seed,uint256 nonce,string call,uint256 target,bool has_number,uint256 number,uint256 wager,"
    "uint256 outcome,bool won,uint256 payout,int256 balance_change,uint256 batch_id,uint256 index,"
    "uint256 fairness_version,uint256 settled_at)")
RECEIPT = RECEIPT_BEFORE_HOUSE_AGENT[:-1] + ",bool house_agent)"
COMMITMENT = ("Commitment(string round_id,address player,bytes32 commitment,uint256 batch_id,uint256 index,"
              "uint256 fairness_version,uint256 created_at)")
SIGNED_MARKS = "SignedMarks(uint256 signed_from,uint256 house_agent_signed_from)"


def type_string(signed):
    """The primary type of a signed object as EIP-712 encodes it: `Name(type name,…)`."""
    typed = signed["typed_data"]
    members = typed["types"][typed["primaryType"]]
    fields = ",".join(f"{member['type']} {member['name']}" for member in members)
    return f"{typed['primaryType']}({fields})"


def start(**env):
    """The server with extra `ARCADE__…` settings (ArcadeProcess passes os.environ on)."""
    with mock.patch.dict(os.environ, env):
        return ArcadeProcess("serve")


def read(url):
    """GET as a well-behaved reader does: a 429 (the heavy-read limit on the feed and seed
    batches) is waited out for as long as its Retry-After says, a few times at most."""
    for _ in range(10):
        answer = requests.get(url, timeout=30)
        if answer.status_code != 429:
            return answer
        time.sleep(float(answer.headers.get("Retry-After", "1")))
    return answer


def recover(signed):
    return Account.recover_message(encode_typed_data(full_message=signed["typed_data"]),
                                   signature=signed["signature"])


class Player:
    """A player whose auth statement is signed with eth_account (EIP-191)."""

    def __init__(self, base, account=None):
        self.base, self.account = base, account or Account.create()
        self.address = self.account.address
        assert self.post("/api/arcade/free", {"address": self.address}).status_code == 200
        statement = self.get(f"/api/arcade/auth-statement/{self.address}").json()["statement"]
        signed = self.account.sign_message(encode_defunct(text=statement))
        self.signature = "0x" + signed.signature.hex().removeprefix("0x")

    def get(self, path):
        return requests.get(f"{self.base}{path}", timeout=30)

    def post(self, path, body):
        return requests.post(f"{self.base}{path}", json=body, timeout=30)

    def commit(self):
        answer = self.post("/api/arcade/commit", {"address": self.address, "signature": self.signature})
        assert answer.status_code == 200, answer.text
        return answer.json()

    def play(self, path, **params):
        round_ = self.commit()
        answer = self.post(f"/api/arcade/{path}", {"round_id": round_["round_id"], "client_seed": "eth_account",
                                                   "wager": 5, **params})
        assert answer.status_code == 200, answer.text
        return round_, answer.json()


class TypedDataTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.agent = Account.create()  # one of the house's own wallets
        cls.server = start(ARCADE__HOUSE__WALLETS=f'["{cls.agent.address}"]')
        cls.base = cls.server.base_url
        manifest = requests.get(f"{cls.base}/api/arcade/manifest", timeout=30).json()
        cls.signer, cls.domain = manifest["signer"], manifest["signing_domain"]
        cls.marks = manifest["signed_marks"]

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()

    def assert_tampering_detected(self, signed, field, change):
        forged = copy.deepcopy(signed)
        change(forged["typed_data"])
        self.assertNotEqual(recover(forged), self.signer, f"{field} changed, still the signer")

    def test_the_commit_answer_recovers_to_the_signer(self):
        player = Player(self.base)
        answer = player.commit()
        signed = answer["proofs"]["commitment"]
        self.assertEqual(signed["typed_data"]["primaryType"], "Commitment")
        self.assertEqual(signed["typed_data"]["domain"], self.domain)
        self.assertEqual(recover(signed), self.signer)
        message = signed["typed_data"]["message"]
        self.assertEqual((message["round_id"], message["player"], message["commitment"]),
                         (answer["round_id"], player.address, "0x" + answer["commitment"]))
        self.assert_tampering_detected(signed, "index", lambda t: t["message"].update(index=t["message"]["index"] + 1))
        self.assert_tampering_detected(signed, "player", lambda t: t["message"].update(player=self.signer))

    def test_a_receipt_recovers_to_the_signer_and_tampering_does_not(self):
        player = Player(self.base)
        for path, params in [("flip", {"call": "heads"}), ("dice", {"target": 50, "direction": "over"}),
                             ("roulette", {"bet": "straight", "number": 7}), ("roulette", {"bet": "black"})]:
            with self.subTest(path=path, **params):
                round_, receipt = player.play(path, **params)
                signed = receipt["proofs"]["receipt"]
                self.assertEqual(signed["typed_data"]["primaryType"], "Receipt")
                self.assertEqual(type_string(signed), RECEIPT)
                self.assertEqual(type_string(receipt["proofs"]["commitment"]), COMMITMENT)
                self.assertEqual(recover(signed), self.signer)
                self.assertEqual(recover(receipt["proofs"]["commitment"]), self.signer)
                self.assertEqual(receipt["proofs"]["commitment"], round_["proofs"]["commitment"])
                message = signed["typed_data"]["message"]
                self.assertEqual((message["bet_id"], message["payout"], message["balance_change"], message["won"]),
                                 (receipt["bet_id"], receipt["payout"], receipt["profit"], receipt["won"]))
                for field, change in {
                    "payout": lambda t: t["message"].update(payout=t["message"]["payout"] + 1),
                    "won": lambda t: t["message"].update(won=not t["message"]["won"]),
                    "client_seed": lambda t: t["message"].update(client_seed="another"),
                    "balance_change": lambda t: t["message"].update(balance_change=-t["message"]["balance_change"] or 1),
                    "chainId": lambda t: t["domain"].update(chainId=t["domain"]["chainId"] + 1),
                }.items():
                    self.assert_tampering_detected(signed, field, change)

    def test_the_signed_marks_recover_to_the_signer(self):
        marks = self.marks
        self.assertEqual((marks["signed_from"], marks["house_agent_signed_from"]), (1, 1), "a fresh database")
        self.assertEqual(type_string(marks), SIGNED_MARKS)
        self.assertEqual(marks["typed_data"]["domain"], self.domain)
        self.assertEqual(marks["typed_data"]["message"],
                         {"signed_from": marks["signed_from"], "house_agent_signed_from": marks["house_agent_signed_from"]})
        self.assertEqual(recover(marks), self.signer)
        for path in ["/.well-known/x402", "/api/arcade/games"]:
            self.assertEqual(requests.get(f"{self.base}{path}", timeout=30).json()["signed_marks"], marks, path)
        self.assert_tampering_detected(marks, "house_agent_signed_from",
                                       lambda t: t["message"].update(house_agent_signed_from=1000))

    def test_a_house_agent_and_a_player_receipt_sign_house_agent(self):
        for who, account, house_agent in [("house agent", self.agent, True), ("player", None, False)]:
            with self.subTest(who=who):
                _, receipt = Player(self.base, account).play("flip", call="heads")
                self.assertGreaterEqual(receipt["bet_id"], self.marks["house_agent_signed_from"])
                self.assertIs(receipt["house_agent"], house_agent)
                signed = receipt["proofs"]["receipt"]
                self.assertEqual(type_string(signed), RECEIPT)
                self.assertIs(signed["typed_data"]["message"]["house_agent"], house_agent)
                self.assertEqual(recover(signed), self.signer)
                self.assert_tampering_detected(signed, "house_agent",
                                               lambda t: t["message"].update(house_agent=not t["message"]["house_agent"]))
                # Signed with the type before house_agent, the same message is not the house's word.
                before = copy.deepcopy(signed)
                before["typed_data"]["types"]["Receipt"].pop()
                del before["typed_data"]["message"]["house_agent"]
                self.assertEqual(type_string(before), RECEIPT_BEFORE_HOUSE_AGENT)
                self.assertNotEqual(recover(before), self.signer)

    def test_every_seed_batch_recovers_to_the_signer(self):
        Player(self.base).play("flip", call="tails")
        batches = read(f"{self.base}/api/arcade/seed-batches").json()
        self.assertTrue(batches)
        for batch in batches:
            self.assertEqual(batch["typed_data"]["primaryType"], "SeedBatch")
            self.assertEqual(recover(batch), self.signer)
            self.assertEqual(batch["typed_data"]["message"]["merkle_root"], "0x" + batch["merkle_root"])


class SecretsStaySecretTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.seeds_secret = secrets.token_hex(32)
        cls.key = "0x" + secrets.token_hex(32)
        cls.server = start(ARCADE__SEEDS__SECRET=cls.seeds_secret, ARCADE__SIGNING__KEY=cls.key)
        cls.base = cls.server.base_url

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()  # again if the test stopped it: harmless

    def test_neither_secret_appears_and_the_signer_is_the_keys_address(self):
        player = Player(self.base)
        rounds = [player.play(path, **params) for path, params in
                  [("flip", {"call": "heads"}), ("dice", {"target": 40}), ("roulette", {"bet": "odd"})]]
        player.commit()  # one left open

        manifest = requests.get(f"{self.base}/api/arcade/manifest", timeout=30).json()
        self.assertEqual(manifest["signer"], Account.from_key(self.key).address)
        self.assertEqual(recover(rounds[0][1]["proofs"]["receipt"]), manifest["signer"])
        # The seeds come from this secret and each batch's published salt (docs/proofs.md), so
        # the setting is the one in use.
        listed = read(f"{self.base}/api/arcade/seed-batches").json()
        salts = {batch["batch_id"]: batch["salt"] for batch in listed}
        for _, receipt in rounds:
            batch = receipt["proofs"]["batch"]
            name = f"arcade seed batch {batch['batch_id']} salt {salts[batch['batch_id']]}"
            batch_secret = hmac.digest(self.seeds_secret.encode(), name.encode(), "sha256")
            self.assertEqual(receipt["server_seed"], hmac.digest(batch_secret, str(batch["index"]).encode(), "sha256").hex())
        first_batch = f"/api/arcade/seed-batches/{rounds[0][1]['proofs']['batch']['batch_id']}"

        spec = requests.get(f"{self.base}/api/openapi.json", timeout=30)
        paths = [path for path, operations in spec.json()["paths"].items() if "get" in operations and "{" not in path]
        self.assertIn("/api/arcade/manifest", paths)
        paths += ["/api/openapi.json", "/.well-known/x402", "/api/arcade/receipts?after=0",
                  first_batch, "/api/arcade/verify/1", f"/api/arcade/balance/{player.address}",
                  f"/api/arcade/rounds/{rounds[0][0]['round_id']}", f"/api/arcade/auth-statement/{player.address}"]
        bodies = {}
        for path in paths:
            answer = read(f"{self.base}{path}")
            if path.startswith("/api/arcade/chips"):  # `serve` has no chain: 503 payments_unavailable
                self.assertEqual((answer.status_code, answer.json()["code"]), (503, "payments_unavailable"))
            else:
                self.assertLess(answer.status_code, 500, path)
            bodies[path] = answer.text.lower()
        for status in (first_batch, "/api/arcade/verify/1", "/api/arcade/receipts?after=0"):
            self.assertEqual(read(f"{self.base}{status}").status_code, 200, status)

        self.server.stop()  # its shutdown lines too
        time.sleep(0.5)  # the reader thread drains the pipe
        forbidden = {"seeds.secret": self.seeds_secret, "signing.key": self.key, "signing.key without 0x": self.key[2:]}
        for name, value in forbidden.items():
            for path, body in bodies.items():
                self.assertNotIn(value.lower(), body, f"{name} in GET {path}")
            self.assertNotIn(value.lower(), "".join(self.server.output).lower(), f"{name} in the server's output")
        self.assertTrue(self.server.output, "the output was captured")


if __name__ == "__main__":
    unittest.main()
