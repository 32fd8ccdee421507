"""A player of the dev chain, signing as a wallet would: the auth statement (EIP-191) and x402
payments (EIP-3009 `TransferWithAuthorization`, EIP-712), with eth_account."""

import base64
import json
import os
import time

import requests
from eth_account import Account
from eth_account.messages import encode_defunct

# Anvil's well-known account 1: `arcade dev` funds it with test dollars (the demo payer).
DEMO_PAYER_KEY = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d"


class Player:
    def __init__(self, base_url, key=DEMO_PAYER_KEY):
        self.base_url = base_url
        self.account = Account.from_key(key)
        self.address = self.account.address
        statement = requests.get(f"{base_url}/api/arcade/auth-statement/{self.address}", timeout=30)
        text = statement.json()["statement"]
        self.signature = "0x" + self.account.sign_message(encode_defunct(text=text)).signature.hex().removeprefix("0x")

    def payment_for(self, path):
        """A fresh signed payment for the resource at `path` (its 402 read first)."""
        challenge = requests.get(f"{self.base_url}{path}", timeout=30)
        required = json.loads(base64.b64decode(challenge.headers["payment-required"]))
        offer = required["accepts"][0]
        now = int(time.time())
        authorization = {
            "from": self.address,
            "to": offer["payTo"],
            "value": int(offer["amount"]),
            "validAfter": 0,
            "validBefore": now + offer["maxTimeoutSeconds"],
            "nonce": "0x" + os.urandom(32).hex(),
        }
        signed = Account.sign_typed_data(
            self.account.key,
            domain_data={
                "name": offer["extra"]["name"],
                "version": offer["extra"]["version"],
                "chainId": int(offer["network"].split(":")[1]),
                "verifyingContract": offer["asset"],
            },
            message_types={
                "TransferWithAuthorization": [
                    {"name": "from", "type": "address"},
                    {"name": "to", "type": "address"},
                    {"name": "value", "type": "uint256"},
                    {"name": "validAfter", "type": "uint256"},
                    {"name": "validBefore", "type": "uint256"},
                    {"name": "nonce", "type": "bytes32"},
                ]
            },
            message_data=authorization,
        )
        payload = {
            "x402Version": 2,
            "accepted": offer,
            "payload": {
                "signature": "0x" + signed.signature.hex().removeprefix("0x"),
                "authorization": {k: str(v) if isinstance(v, int) else v for k, v in authorization.items()},
            },
        }
        return base64.b64encode(json.dumps(payload).encode()).decode()

    def buy(self, path):
        bought = requests.post(f"{self.base_url}{path}", headers={"PAYMENT-SIGNATURE": self.payment_for(path)}, timeout=60)
        bought.raise_for_status()
        return bought.json()

    def commit(self):
        committed = requests.post(
            f"{self.base_url}/api/arcade/commit",
            json={"address": self.address, "signature": self.signature},
            timeout=30,
        )
        committed.raise_for_status()
        return committed.json()["round_id"]
