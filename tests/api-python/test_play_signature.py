"""A player's own signature of the play, made with eth_account as a Python agent would.

The `Play` typed data is written here from docs/proofs.md ("Play"), signed with
`Account.sign_message(encode_typed_data(full_message=...))`, and sent as `play_signature`: the
receipt shows it in `proofs.play`, recovering to the player. A signature of the same play by a
stranger, or of another call by the player, is refused (403 `play_signature_mismatch`) and
changes nothing: the chips stay, the round stays open.
"""

import secrets
import unittest

import requests
from eth_account import Account
from eth_account.messages import encode_defunct, encode_typed_data

from arcade_process import ArcadeProcess

PLAY_TYPE = [
    {"name": "round_id", "type": "string"},
    {"name": "player", "type": "address"},
    {"name": "commitment", "type": "bytes32"},
    {"name": "game", "type": "string"},
    {"name": "client_seed", "type": "string"},
    {"name": "call", "type": "string"},
    {"name": "target", "type": "uint256"},
    {"name": "has_number", "type": "bool"},
    {"name": "number", "type": "uint256"},
    {"name": "wager", "type": "uint256"},
]
DOMAIN_TYPE = [
    {"name": "name", "type": "string"},
    {"name": "version", "type": "string"},
    {"name": "chainId", "type": "uint256"},
]


def hex_signature(signed):
    return "0x" + bytes(signed.signature).hex()


def play_typed(domain, player, commitment, body):
    """The Play of a roulette call `body`, as docs/proofs.md maps it."""
    number = body.get("number")
    return {
        "domain": domain,
        "primaryType": "Play",
        "types": {"EIP712Domain": DOMAIN_TYPE, "Play": PLAY_TYPE},
        "message": {
            "round_id": body["round_id"],
            "player": player.address,
            "commitment": "0x" + commitment,
            "game": "roulette",
            "client_seed": body["client_seed"],
            "call": body["bet"],
            "target": 0,
            "has_number": number is not None,
            "number": number or 0,
            "wager": body["wager"],
        },
    }


class PlaySignatureFromPython(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = ArcadeProcess()
        cls.base = cls.server.base_url
        cls.domain = requests.get(f"{cls.base}/api/arcade/manifest", timeout=10).json()["signing_domain"]

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()

    def open_round(self, player):
        statement = requests.get(f"{self.base}/api/arcade/auth-statement/{player.address}", timeout=10).json()
        signed = Account.sign_message(encode_defunct(text=statement["statement"]), private_key=player.key)
        committed = requests.post(f"{self.base}/api/arcade/commit", timeout=10,
                                  json={"address": player.address, "signature": hex_signature(signed)})
        self.assertEqual(committed.status_code, 200, committed.text)
        return committed.json()

    def chips(self, player):
        return requests.get(f"{self.base}/api/arcade/balance/{player.address}", timeout=10).json()["chips"]

    def test_a_signed_play_is_shown_and_recovers_to_the_player(self):
        player = Account.create()
        requests.post(f"{self.base}/api/arcade/free", json={"address": player.address}, timeout=10).raise_for_status()
        committed = self.open_round(player)
        body = {"round_id": committed["round_id"], "client_seed": secrets.token_hex(16),
                "wager": 5, "bet": "straight", "number": 7}
        typed = play_typed(self.domain, player, committed["commitment"], body)
        signature = hex_signature(Account.sign_message(encode_typed_data(full_message=typed), private_key=player.key))
        played = requests.post(f"{self.base}/api/arcade/roulette", json={**body, "play_signature": signature}, timeout=10)
        self.assertEqual(played.status_code, 200, played.text)
        shown = played.json()["proofs"]["play"]
        self.assertEqual(shown["signature"], signature)
        self.assertEqual(shown["typed_data"]["message"], typed["message"])
        recovered = Account.recover_message(encode_typed_data(full_message=shown["typed_data"]),
                                            signature=shown["signature"])
        self.assertEqual(recovered, player.address)

    def test_a_play_signature_not_the_owners_of_this_play_changes_nothing(self):
        player, stranger = Account.create(), Account.create()
        requests.post(f"{self.base}/api/arcade/free", json={"address": player.address}, timeout=10).raise_for_status()
        committed = self.open_round(player)
        chips = self.chips(player)
        body = {"round_id": committed["round_id"], "client_seed": "mine", "wager": 5, "bet": "red"}
        typed = play_typed(self.domain, player, committed["commitment"], body)
        other_call = play_typed(self.domain, player, committed["commitment"], {**body, "bet": "black"})
        for case, signer, signed_typed in [("a stranger's", stranger, typed), ("another bet", player, other_call)]:
            signature = hex_signature(Account.sign_message(encode_typed_data(full_message=signed_typed),
                                                           private_key=signer.key))
            refused = requests.post(f"{self.base}/api/arcade/roulette", json={**body, "play_signature": signature}, timeout=10)
            self.assertEqual(refused.status_code, 403, f"{case}: {refused.text}")
            self.assertEqual(refused.json()["code"], "play_signature_mismatch", case)
            self.assertEqual(self.chips(player), chips, case)
            state = requests.get(f"{self.base}/api/arcade/rounds/{committed['round_id']}", timeout=10).json()["state"]
            self.assertEqual(state, "open", case)


if __name__ == "__main__":
    unittest.main()
