"""The arcade's x402 discovery metadata read by PyPI's official x402 package (unmodified).

Every chip endpoint's 402, by GET and by POST, is parsed by the client library; its `bazaar`
extension's `info` is validated against its own `schema` by a JSON Schema 2020-12 validator
(`jsonschema`) and by the SDK's facilitator-side checks; the payment the official client builds
echoes the extension, and the SDK's facilitator catalogs the resource from that echo with the
service name, tags, description and MIME type the arcade sent. The manifest carries the same.
"""

import unittest

import jsonschema
import requests
from eth_account import Account
from x402 import x402ClientSync
from x402.extensions.bazaar import extract_discovery_info, validate_discovery_extension
from x402.extensions.bazaar.facilitator import validate_discovery_extension_spec
from x402.http import x402HTTPClientSync
from x402.mechanisms.evm import EthAccountSigner
from x402.mechanisms.evm.exact.register import register_exact_evm_client

from arcade_process import ArcadeProcess

TIER_TEMPLATE = "/api/arcade/chips/:tier"
# (path, tier, routeTemplate) of every paid resource, in the manifest's order.
RESOURCES = [
    ("/api/arcade/chips", "small", None),
    ("/api/arcade/chips/micro", "micro", TIER_TEMPLATE),
    ("/api/arcade/chips/small", "small", TIER_TEMPLATE),
    ("/api/arcade/chips/medium", "medium", TIER_TEMPLATE),
]
METHODS = ["GET", "POST"]


def check_against_own_schema(test, bazaar):
    """`info` is valid under `schema` for a 2020-12 validator and for the SDK's checks."""
    schema = bazaar["schema"]
    test.assertEqual(schema["$schema"], "https://json-schema.org/draft/2020-12/schema")
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker()).validate(bazaar["info"])
    for result in (validate_discovery_extension(bazaar), validate_discovery_extension_spec(bazaar)):
        test.assertTrue(result.valid, result.errors)


class DiscoveryByTheOfficialPackage(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = ArcadeProcess("dev")
        # Signs offline (no chain needed to build a payment); any token, any amount.
        cls.client = x402ClientSync()
        register_exact_evm_client(cls.client, EthAccountSigner(Account.create()))
        cls.client.set_spend_controls(False)

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()

    def challenge(self, method, path):
        response = requests.request(method, f"{self.server.base_url}{path}", timeout=10)
        self.assertEqual(response.status_code, 402, response.text)
        return x402HTTPClientSync(self.client).get_payment_required_response(
            lambda name: response.headers.get(name), response.json())

    def test_every_challenge_validates_against_its_own_schema(self):
        for path, tier, template in RESOURCES:
            for method in METHODS:
                with self.subTest(method=method, path=path):
                    required = self.challenge(method, path)
                    bazaar = required.extensions["bazaar"]
                    check_against_own_schema(self, bazaar)
                    info_input = bazaar["info"]["input"]
                    self.assertEqual((info_input["type"], info_input["method"]), ("http", method))
                    self.assertEqual(bazaar.get("routeTemplate"), template)
                    if template:
                        self.assertEqual(info_input["pathParams"], {"tier": tier})
                    self.assertEqual(bazaar["info"]["output"]["example"]["tier"], tier)
                    resource = required.resource
                    self.assertEqual(resource.url, f"{self.server.base_url}{path}")
                    self.assertEqual(resource.mime_type, "application/json")
                    self.assertEqual(resource.service_name, "Provably Fair Arcade")
                    self.assertIn("provably-fair", resource.tags)
                    self.assertIn(f"the {tier} tier", resource.description)

    def test_a_facilitator_catalogs_what_the_official_client_echoes(self):
        base = self.server.base_url
        for path, _tier, template in RESOURCES:
            for method in METHODS:
                with self.subTest(method=method, path=path):
                    required = self.challenge(method, path)
                    payload = self.client.create_payment_payload(required)
                    self.assertEqual(payload.extensions, required.extensions)
                    self.assertEqual(payload.resource, required.resource)
                    found = extract_discovery_info(payload, payload.accepted)
                    self.assertIsNotNone(found, "the SDK's facilitator catalogs it")
                    self.assertEqual(found.resource_url, f"{base}{template or path}")
                    self.assertEqual(found.method, method)
                    self.assertEqual(found.route_template, template)
                    # Kept by the SDK's service-metadata sanitizer: nothing dropped.
                    self.assertEqual(found.service_name, required.resource.service_name)
                    self.assertEqual(found.tags, required.resource.tags)
                    self.assertEqual(found.description, required.resource.description)
                    self.assertEqual(found.mime_type, "application/json")

    def test_the_manifest_carries_what_each_challenge_says(self):
        manifest = requests.get(f"{self.server.base_url}/api/arcade/manifest", timeout=10).json()
        self.assertEqual([r["path"] for r in manifest["resources"]], [r[0] for r in RESOURCES])
        for listed in manifest["resources"]:
            for method in METHODS:
                with self.subTest(method=method, path=listed["path"]):
                    required = self.challenge(method, listed["path"])
                    # The header leaves out the spend-controls lines (the 402's body carries
                    # them) and adds a fresh sign-in-with-x challenge (the manifest has none).
                    in_header = dict(required.extensions)
                    self.assertIn("sign-in-with-x", in_header)
                    self.assertNotIn("spend-controls", in_header)
                    del in_header["sign-in-with-x"]
                    listed_extensions = dict(listed["extensions"][method])
                    self.assertIn("npm", listed_extensions.pop("spend-controls")["info"])
                    self.assertEqual(listed_extensions, in_header)
                    self.assertEqual(listed["resource"], required.resource.model_dump(by_alias=True, exclude_none=True))
                    check_against_own_schema(self, listed["extensions"][method]["bazaar"])


if __name__ == "__main__":
    unittest.main()
