"""A round of every game the server lists, played and checked with eth_account as a Python
agent would: the player signs its Play (docs/proofs.md, "Play") from the commit answer and the
call; the house's Receipt is rebuilt field by field from the receipt by the table of
docs/proofs.md and must recover to the manifest's signer, and proofs.play to the player.
"""

import datetime
import secrets
import unittest

import requests
from eth_account import Account
from eth_account.messages import encode_defunct, encode_typed_data

from arcade_process import ArcadeProcess
from test_play_signature import PLAY_TYPE, DOMAIN_TYPE, hex_signature

# One call per game, as its REST body gives it, and the Play's call members (docs/proofs.md).
CALLS = {
    "coinflip": ({"call": "heads"}, lambda b: ("heads", 0, None)),
    "dice": ({"target": 50, "direction": "over"}, lambda b: ("over", 50, None)),
    "roulette": ({"bet": "straight", "number": 17}, lambda b: ("straight", 0, 17)),
    "limbo": ({"target": "2.00"}, lambda b: ("limbo", 200, None)),
}
RECEIPT_FIELDS = ("round_id string,bet_id uint256,player address,game string,commitment bytes32,"
                  "server_seed bytes32,client_seed string,nonce uint256,call string,target uint256,"
                  "has_number bool,number uint256,wager uint256,outcome uint256,won bool,"
                  "payout uint256,balance_change int256,batch_id uint256,index uint256,"
                  "fairness_version uint256,settled_at uint256,house_agent bool")


def receipt_message(r):
    """The Receipt message of docs/proofs.md's table, from the receipt's own fields."""
    params, result = r["params"], r["result"]
    call, target, number = {
        "coinflip": lambda: (params["call"], 0, None),
        "dice": lambda: (params["direction"], params["target"], None),
        "roulette": lambda: (params["bet"], 0, params.get("number")),
        "limbo": lambda: ("limbo", params["target_hundredths"], None),
    }[r["game"]]()
    outcome = {
        "coinflip": lambda: 1 if result["outcome"] == "heads" else 0,
        "dice": lambda: result["roll_hundredths"],
        "roulette": lambda: result["pocket"],
        "limbo": lambda: result["result_hundredths"],
    }[r["game"]]()
    settled = datetime.datetime.fromisoformat(r["settled_at"].replace("Z", "+00:00"))
    return {
        "round_id": r["round_id"], "bet_id": r["bet_id"], "player": r["address"], "game": r["game"],
        "commitment": "0x" + r["commitment"], "server_seed": "0x" + r["server_seed"],
        "client_seed": r["client_seed"], "nonce": r["nonce"], "call": call, "target": target,
        "has_number": number is not None, "number": number or 0, "wager": r["wager"],
        "outcome": outcome, "won": r["won"], "payout": r["payout"], "balance_change": r["profit"],
        "batch_id": r["proofs"]["batch"]["batch_id"], "index": r["proofs"]["batch"]["index"],
        "fairness_version": r["fairness_version"], "settled_at": int(settled.timestamp()),
        "house_agent": r["house_agent"],
    }


class EveryGameSignedFromPython(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = ArcadeProcess()
        cls.base = cls.server.base_url
        manifest = requests.get(f"{cls.base}/api/arcade/manifest", timeout=10).json()
        cls.domain, cls.signer = manifest["signing_domain"], manifest["signer"]
        cls.games = requests.get(f"{cls.base}/api/arcade/games", timeout=10).json()["games"]

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()

    def test_every_listed_game_has_a_call_here(self):
        self.assertEqual(sorted(g["name"] for g in self.games), sorted(CALLS))

    def test_a_round_of_every_game_is_signed_by_the_house_and_the_player(self):
        player = Account.create()
        requests.post(f"{self.base}/api/arcade/free", json={"address": player.address}, timeout=10).raise_for_status()
        statement = requests.get(f"{self.base}/api/arcade/auth-statement/{player.address}", timeout=10).json()
        auth = hex_signature(Account.sign_message(encode_defunct(text=statement["statement"]), private_key=player.key))
        for game in self.games:
            name, path = game["name"], game["endpoint"].split(" ")[1]
            body, members = CALLS[name]
            committed = requests.post(f"{self.base}/api/arcade/commit", timeout=10,
                                      json={"address": player.address, "signature": auth}).json()
            call = {"round_id": committed["round_id"], "client_seed": secrets.token_hex(16), "wager": 1, **body}
            call_name, target, number = members(body)
            play = {
                "domain": self.domain, "primaryType": "Play",
                "types": {"EIP712Domain": DOMAIN_TYPE, "Play": PLAY_TYPE},
                "message": {
                    "round_id": call["round_id"], "player": player.address,
                    "commitment": "0x" + committed["commitment"], "game": name,
                    "client_seed": call["client_seed"], "call": call_name, "target": target,
                    "has_number": number is not None, "number": number or 0, "wager": 1,
                },
            }
            signature = hex_signature(Account.sign_message(encode_typed_data(full_message=play), private_key=player.key))
            played = requests.post(f"{self.base}{path}", json={**call, "play_signature": signature}, timeout=10)
            self.assertEqual(played.status_code, 200, f"{name}: {played.text}")
            receipt = played.json()
            self.assertEqual(receipt["game"], name)
            signed = receipt["proofs"]["receipt"]
            types = signed["typed_data"]["types"]["Receipt"]
            self.assertEqual(",".join(f"{t['name']} {t['type']}" for t in types), RECEIPT_FIELDS, name)
            rebuilt = {**signed["typed_data"], "message": receipt_message(receipt)}
            house = Account.recover_message(encode_typed_data(full_message=rebuilt), signature=signed["signature"])
            self.assertEqual(house, self.signer, f"{name}: the Receipt rebuilt from the receipt is the house's")
            shown = receipt["proofs"]["play"]
            self.assertEqual(shown["typed_data"]["message"], play["message"], name)
            own = Account.recover_message(encode_typed_data(full_message=play), signature=shown["signature"])
            self.assertEqual(own, player.address, name)
            print(f"{name}: bet {receipt['bet_id']} {receipt['params']} -> {receipt['result']}, "
                  f"Receipt recovers to {house}, Play to {own}", flush=True)


if __name__ == "__main__":
    unittest.main()
