"""The arcade sold to by PyPI's official x402 client (unmodified), on the dev chain.

Starts `$ARCADE_BIN dev` (anvil + the test dollar + a funded demo payer, a fresh SQLite file),
buys chips with `x402.http.clients.x402_requests`, and checks the chips, the ledger-backed
balance and the tokens on-chain.
"""

import unittest

import requests
from eth_account import Account
from web3 import Web3
from x402 import x402ClientSync
from x402.http import x402HTTPClientSync
from x402.http.clients import x402_requests
from x402.mechanisms.evm import EthAccountSigner
from x402.mechanisms.evm.exact.register import register_exact_evm_client

from arcade_process import ArcadeProcess

# anvil's public test account 1: the dev chain's demo payer.
DEMO_PAYER_KEY = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d"
ERC20_BALANCE = [{
    "name": "balanceOf", "type": "function", "stateMutability": "view",
    "inputs": [{"name": "owner", "type": "address"}],
    "outputs": [{"name": "", "type": "uint256"}],
}]



class OfficialPythonClient(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = ArcadeProcess("dev")

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()

    def test_buys_chips_and_the_token_moves_on_chain(self):
        base = self.server.base_url
        manifest = requests.get(f"{base}/api/arcade/manifest", timeout=10).json()
        payer = Account.from_key(DEMO_PAYER_KEY)
        web3 = Web3(Web3.HTTPProvider(self.server.rpc_url))
        token = web3.eth.contract(address=Web3.to_checksum_address(manifest["asset"]), abi=ERC20_BALANCE)
        pay_to = manifest["pay_to"]
        payer_before = token.functions.balanceOf(payer.address).call()
        house_before = token.functions.balanceOf(pay_to).call()

        client = x402ClientSync()
        register_exact_evm_client(client, EthAccountSigner(payer))
        # Our token is not one of the client's default assets: allow it, for this network only.
        client.set_spend_controls({"allowed_assets": [{"network": manifest["network"], "asset": manifest["asset"]}]})
        with x402_requests(client) as session:
            response = session.post(f"{base}/api/arcade/chips/micro", timeout=60)
        self.assertEqual(response.status_code, 200, response.text)
        purchase = response.json()
        self.assertEqual(purchase["address"], payer.address)
        self.assertEqual(purchase["chips_credited"], 100)
        settlement = x402HTTPClientSync(client).get_payment_settle_response(lambda name: response.headers.get(name))
        self.assertTrue(settlement.success)
        self.assertEqual(settlement.transaction, purchase["tx_hash"])
        self.assertEqual(settlement.payer, payer.address)

        balance = requests.get(f"{base}/api/arcade/balance/{payer.address}", timeout=10).json()
        self.assertEqual((balance["chips"], balance["bought_in"]), (100, True))
        self.assertEqual(token.functions.balanceOf(payer.address).call(), payer_before - 10_000)
        self.assertEqual(token.functions.balanceOf(pay_to).call(), house_before + 10_000)
        receipt = web3.eth.get_transaction_receipt(purchase["tx_hash"])
        self.assertEqual(receipt["status"], 1)

    def test_the_challenge_is_read_by_the_client_library(self):
        response = requests.get(f"{self.server.base_url}/api/arcade/chips", timeout=10)
        self.assertEqual(response.status_code, 402)
        required = x402HTTPClientSync(x402ClientSync()).get_payment_required_response(
            lambda name: response.headers.get(name), response.json())
        self.assertEqual(required.x402_version, 2)
        self.assertEqual(required.accepts[0].amount, "100000")
        self.assertEqual(required.accepts[0].extra["name"], "Arcade Test Dollar")


if __name__ == "__main__":
    unittest.main()
