"""The 402's payment-identifier extension used over REST with PyPI's official x402 helpers
(`x402.extensions.payment_identifier`), on the dev chain: the same id with the same payload
answers the original purchase and is credited once; the same id with another payload is a 409;
a malformed id is a 400. (Sign-in-with-x's helpers need a venv of their own: tests/siwx-python.)
"""

import copy
import unittest

import requests
from eth_account import Account
from x402 import x402ClientSync
from x402.extensions.payment_identifier import (
    PAYMENT_IDENTIFIER,
    append_payment_identifier_to_extensions,
    generate_payment_id,
    is_valid_payment_id,
)
from x402.http import x402HTTPClientSync
from x402.mechanisms.evm import EthAccountSigner
from x402.mechanisms.evm.exact.register import register_exact_evm_client

from arcade_process import ArcadeProcess
from token_control import DEMO_PAYER_KEY

MICRO = "/api/arcade/chips/micro"


class OfficialPaymentIdentifierHelpers(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = ArcadeProcess("dev")
        cls.base = cls.server.base_url
        manifest = requests.get(f"{cls.base}/api/arcade/manifest", timeout=10).json()
        cls.client = x402ClientSync()
        register_exact_evm_client(cls.client, EthAccountSigner(Account.from_key(DEMO_PAYER_KEY)))
        cls.client.set_spend_controls({"allowed_assets": [{"network": manifest["network"], "asset": manifest["asset"]}]})
        cls.http = x402HTTPClientSync(cls.client)

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()

    def challenge(self, path=MICRO):
        response = requests.post(f"{self.base}{path}", timeout=10)
        self.assertEqual(response.status_code, 402, response.text)
        return self.http.get_payment_required_response(lambda name: response.headers.get(name), response.json())

    def identified(self, required, payment_id):
        """A fresh payment for `required`, carrying `payment_id` as the helper appends it."""
        extensions = copy.deepcopy(required.extensions)
        append_payment_identifier_to_extensions(extensions, payment_id)
        payment = self.client.create_payment_payload(required)
        return payment.model_copy(update={"extensions": {**(payment.extensions or {}), **extensions}})

    def post(self, payment, path=MICRO):
        headers = self.http.encode_payment_signature_header(payment)
        return requests.post(f"{self.base}{path}", headers=headers, timeout=60)

    def chips(self, address):
        return requests.get(f"{self.base}/api/arcade/balance/{address}", timeout=10).json()["chips"]

    def test_payment_identifier_retry_conflict_and_malformed(self):
        payer = Account.from_key(DEMO_PAYER_KEY).address
        required = self.challenge()
        self.assertEqual(required.extensions[PAYMENT_IDENTIFIER]["info"], {"required": False})
        payment_id = generate_payment_id()
        self.assertTrue(is_valid_payment_id(payment_id))
        before = self.chips(payer)
        payment = self.identified(required, payment_id)
        first, again = self.post(payment), self.post(payment)
        self.assertEqual(first.status_code, 200, first.text)
        self.assertEqual((again.status_code, again.json()), (200, first.json()))
        self.assertEqual(self.chips(payer), before + 100, "credited once")
        print(f"\nsame id {payment_id}, same payload: the original answer "
              f"(payment {first.json()['payment_id']}), credited once")

        conflict = self.post(self.identified(required, payment_id))
        self.assertEqual(conflict.status_code, 409, conflict.text)
        self.assertEqual(conflict.json()["code"], "payment_identifier_conflict")
        malformed = "pay_not valid!"
        self.assertFalse(is_valid_payment_id(malformed))
        bad = self.identified(required, payment_id)
        bad.extensions[PAYMENT_IDENTIFIER]["info"]["id"] = malformed
        refused = self.post(bad)
        self.assertEqual((refused.status_code, refused.json()["code"]), (400, "payment_identifier_invalid"))
        print(f"same id, another payload: {conflict.status_code}; malformed id: {refused.status_code}")
        self.assertEqual(self.chips(payer), before + 100)


if __name__ == "__main__":
    unittest.main()
