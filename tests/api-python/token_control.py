"""The dev chain's test dollar as the Python suites read and move it: balances, receipts, a
transfer from the demo payer, and an EIP-3009 authorization landed directly on the token by an
account other than the house (the front-run)."""

import requests
from eth_account import Account
from web3 import Web3

# anvil's public test accounts 1 (the dev chain's demo payer, holding test dollars) and 2 (a
# relayer with only ether).
DEMO_PAYER_KEY = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d"
RELAYER_KEY = "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a"

TOKEN_ABI = [
    {"name": "balanceOf", "type": "function", "stateMutability": "view",
     "inputs": [{"name": "owner", "type": "address"}], "outputs": [{"name": "", "type": "uint256"}]},
    {"name": "transfer", "type": "function", "stateMutability": "nonpayable",
     "inputs": [{"name": "to", "type": "address"}, {"name": "value", "type": "uint256"}],
     "outputs": [{"name": "", "type": "bool"}]},
    {"name": "transferWithAuthorization", "type": "function", "stateMutability": "nonpayable",
     "inputs": [{"name": n, "type": t} for n, t in [
         ("from", "address"), ("to", "address"), ("value", "uint256"), ("validAfter", "uint256"),
         ("validBefore", "uint256"), ("nonce", "bytes32"), ("v", "uint8"), ("r", "bytes32"),
         ("s", "bytes32")]],
     "outputs": []},
]

AUTHORIZATION_TYPES = {
    "TransferWithAuthorization": [
        {"name": "from", "type": "address"}, {"name": "to", "type": "address"},
        {"name": "value", "type": "uint256"}, {"name": "validAfter", "type": "uint256"},
        {"name": "validBefore", "type": "uint256"}, {"name": "nonce", "type": "bytes32"},
    ],
}


class TokenControl:
    def __init__(self, rpc_url, manifest_url):
        self.web3 = Web3(Web3.HTTPProvider(rpc_url))
        self.manifest = requests.get(manifest_url, timeout=10).json()
        address = Web3.to_checksum_address(self.manifest["asset"])
        self.token = self.web3.eth.contract(address=address, abi=TOKEN_ABI)

    def balance(self, address):
        return self.token.functions.balanceOf(Web3.to_checksum_address(address)).call()

    def receipt_status(self, tx_hash):
        return self.web3.eth.get_transaction_receipt(tx_hash)["status"]

    @staticmethod
    def chips(base_url, address):
        return requests.get(f"{base_url}/api/arcade/balance/{address}", timeout=10).json()["chips"]

    def fund(self, address, amount):
        """Sends `amount` base units from the demo payer to `address`."""
        self.send(DEMO_PAYER_KEY, self.token.functions.transfer(address, amount))

    def land_same_nonce_to_self(self, payer, payment):
        """Signs, as `payer`, an authorization of `payment`'s nonce paying `payer`, and lands it
        on the token from the relayer before anyone presents `payment`. Returns its hash."""
        signed = dict(payment.payload["authorization"])
        signed["to"] = payer.address
        extra = payment.accepted.extra
        domain = {
            "name": extra["name"], "version": extra["version"],
            "chainId": int(payment.accepted.network.split(":")[1]),
            "verifyingContract": self.token.address,
        }
        message = {
            "from": signed["from"], "to": signed["to"], "value": int(signed["value"]),
            "validAfter": int(signed["validAfter"]), "validBefore": int(signed["validBefore"]),
            "nonce": bytes.fromhex(signed["nonce"].removeprefix("0x")),
        }
        signature = Account.sign_typed_data(payer.key, domain, AUTHORIZATION_TYPES, message)
        call = self.token.functions.transferWithAuthorization(
            message["from"], message["to"], message["value"], message["validAfter"],
            message["validBefore"], message["nonce"], signature.v,
            signature.r.to_bytes(32, "big"), signature.s.to_bytes(32, "big"))
        return self.send(RELAYER_KEY, call)

    def send(self, key, call):
        """Sends `call` from the account of `key`; asserts it succeeded; returns its hash."""
        sender = Account.from_key(key)
        tx = call.build_transaction({
            "from": sender.address, "nonce": self.web3.eth.get_transaction_count(sender.address),
        })
        raw = sender.sign_transaction(tx).raw_transaction
        tx_hash = self.web3.eth.send_raw_transaction(raw)
        receipt = self.web3.eth.wait_for_transaction_receipt(tx_hash, timeout=30)
        if receipt["status"] != 1:
            raise AssertionError(f"{tx_hash.hex()} reverted")
        return "0x" + tx_hash.hex().removeprefix("0x")
