"""Chips bought inside MCP by PyPI's official x402 MCP client, on the dev chain.

`x402.mcp.x402MCPClient` (async, unmodified) drives `arcade_buy_chips` over PyPI's official MCP
SDK (mcp 2.x `Client`, streamable HTTP): it reads the PaymentRequired from the tool error, signs
it with the official EVM scheme, calls again with `_meta["x402/payment"]`, and reads the
settlement from `_meta["x402/payment-response"]`. Then the replay (the same payload again) and
the front-run (the client's payload taken by its own hook, and an authorization of the same
nonce landed on the token first by another account) are refused with a failed settlement and
credit nothing. The challenge's bazaar MCP-tool form passes both of the SDK's validators and has
the shape of its own `declare_mcp_discovery_extension`.
"""

import asyncio
import json
import unittest
from datetime import timedelta
from types import SimpleNamespace

from eth_account import Account
from mcp import Client
from x402 import x402Client
from x402.extensions.bazaar import (
    DeclareMcpDiscoveryConfig,
    OutputConfig,
    declare_mcp_discovery_extension,
    validate_discovery_extension,
)
from x402.extensions.bazaar.facilitator import validate_discovery_extension_spec
from x402.mcp import x402MCPClient
from x402.mcp.types import PaymentRequiredHookResult
from x402.mechanisms.evm import EthAccountSigner
from x402.mechanisms.evm.exact.register import register_exact_evm_client

from arcade_process import ArcadeProcess
from token_control import DEMO_PAYER_KEY, TokenControl

TOOL = "arcade_buy_chips"


class SdkToolCaller:
    """The official MCP `Client` as `x402MCPClient` calls it (the mcp 1.x client's shape):
    `call_tool(params)`, with the params' `_meta` sent as the request's `_meta` and the timeout
    as a `timedelta`, answered with the result's wire fields (mcp 2.x takes seconds and names
    them in snake case)."""

    def __init__(self, client):
        self.client = client

    async def call_tool(self, params, read_timeout_seconds=None, **_):
        if isinstance(read_timeout_seconds, timedelta):
            read_timeout_seconds = read_timeout_seconds.total_seconds()
        result = await self.client.call_tool(
            params["name"], params.get("arguments"), read_timeout_seconds=read_timeout_seconds,
            meta=params.get("_meta"))
        return SimpleNamespace(
            content=[block.model_dump(by_alias=True, exclude_none=True) for block in result.content],
            isError=result.is_error, _meta=dict(result.meta or {}),
            structuredContent=result.structured_content)


class OfficialPythonMcpBuyer(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = ArcadeProcess("dev")
        base = cls.server.base_url
        cls.chain = TokenControl(cls.server.rpc_url, f"{base}/api/arcade/manifest")

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()

    def payment_client(self, payer):
        client = x402Client()
        register_exact_evm_client(client, EthAccountSigner(payer))
        manifest = self.chain.manifest
        client.set_spend_controls({"allowed_assets": [{"network": manifest["network"], "asset": manifest["asset"]}]})
        return client

    def test_buys_chips_then_a_replay_is_refused(self):
        asyncio.run(self.buy_and_replay())

    def test_a_front_run_through_the_official_client_credits_nothing(self):
        asyncio.run(self.front_run())

    def test_the_challenge_declares_the_tool_to_bazaar(self):
        asyncio.run(self.bazaar())

    async def buy_and_replay(self):
        payer = Account.from_key(DEMO_PAYER_KEY)
        chips_before = self.chain.chips(self.server.base_url, payer.address)
        tokens_before = self.chain.balance(payer.address)
        async with Client(f"{self.server.base_url}/api/mcp") as mcp:
            tools = [tool.name for tool in (await mcp.list_tools()).tools]
            self.assertIn(TOOL, tools)
            print(f"\nlist tools: {len(tools)} tools, {TOOL} among them")
            buyer = x402MCPClient(SdkToolCaller(mcp), self.payment_client(payer))
            seen = []
            buyer.on_payment_required(lambda context: seen.append(context.payment_required))
            paid = []
            buyer.on_after_payment(lambda context: paid.append(context.payment_payload))
            result = await buyer.call_tool(TOOL, {"tier": "small"})
            offer = seen[0].accepts[0]
            print(f"402 seen: {offer.amount} base units of {offer.asset} to {offer.pay_to} on {offer.network}")
            print(f"payment made: authorization nonce {paid[0].payload['authorization']['nonce']}")
            self.assertTrue(result.payment_made)
            self.assertFalse(result.is_error, result.content)
            settlement = result.payment_response
            print(f"settlement: success={settlement.success} transaction={settlement.transaction}")
            self.assertTrue(settlement.success)
            self.assertEqual(settlement.payer, payer.address)
            self.assertEqual(self.chain.receipt_status(settlement.transaction), 1)
            chips = self.chain.chips(self.server.base_url, payer.address)
            print(f"balance after: {chips} chips, {self.chain.balance(payer.address)} token base units")
            self.assertEqual(chips, chips_before + 1000)
            self.assertEqual(self.chain.balance(payer.address), tokens_before - 100_000)

            replay = await buyer.call_tool_with_payment(TOOL, {"tier": "small"}, paid[0])
            refusal = replay.payment_response
            print(f"replay: isError={replay.is_error} success={refusal.success} errorReason={refusal.error_reason}")
            self.assertTrue(replay.is_error)
            self.assertFalse(refusal.success)
            self.assertEqual(refusal.error_reason, "invalid_exact_evm_nonce_already_used")
            self.assertEqual(refusal.transaction, settlement.transaction)
            self.assertEqual(self.chain.chips(self.server.base_url, payer.address), chips, "nothing credited")

    async def front_run(self):
        payer = Account.create()
        self.chain.fund(payer.address, 10_000)
        house_before = self.chain.balance(self.chain.manifest["pay_to"])
        async with Client(f"{self.server.base_url}/api/mcp") as mcp:
            payments = self.payment_client(payer)
            buyer = x402MCPClient(SdkToolCaller(mcp), payments)
            taken = []

            async def take_and_front_run(context):
                payload = await payments.create_payment_payload(context.payment_required)
                taken.append(payload)
                tx = self.chain.land_same_nonce_to_self(payer, payload)
                print(f"\nfront-run: same-nonce authorization paying the payer landed first in {tx}")
                return PaymentRequiredHookResult(payment=payload)

            buyer.on_payment_required(take_and_front_run)
            result = await buyer.call_tool(TOOL, {"tier": "micro"})
            refusal = result.payment_response
            print(f"the client's call: isError={result.is_error} success={refusal.success} "
                  f"errorReason={refusal.error_reason} transaction={refusal.transaction!r}")
            self.assertTrue(result.is_error)
            self.assertFalse(refusal.success)
            self.assertEqual(refusal.error_reason, "invalid_exact_evm_nonce_already_used")
            self.assertEqual(refusal.payer, payer.address)
            self.assertEqual(self.chain.chips(self.server.base_url, payer.address), 0)
            self.assertEqual(self.chain.balance(payer.address), 10_000, "the chain moved the payer's tokens back to the payer")
            self.assertEqual(self.chain.balance(self.chain.manifest["pay_to"]), house_before, "the house got nothing")
            again = await buyer.call_tool_with_payment(TOOL, {"tier": "micro"}, taken[0])
            self.assertTrue(again.is_error)
            self.assertFalse(again.payment_response.success)
            self.assertEqual(json.loads(again.content[0]["text"])["code"], "payment_refused")
            self.assertEqual(self.chain.chips(self.server.base_url, payer.address), 0)
            print("the same payload again: refused the same way; 0 chips to anyone, the house unpaid")

    async def bazaar(self):
        async with Client(f"{self.server.base_url}/api/mcp") as mcp:
            tool = next(t for t in (await mcp.list_tools()).tools if t.name == TOOL)
            result = await SdkToolCaller(mcp).call_tool({"name": TOOL, "arguments": {"tier": "medium"}})
        self.assertTrue(result.isError)
        self.assertNotIn("x402/payment-response", result._meta, "no payment, no settlement")
        bazaar = result.structuredContent["extensions"]["bazaar"]
        for check in (validate_discovery_extension(bazaar), validate_discovery_extension_spec(bazaar)):
            self.assertTrue(check.valid, check.errors)
        info = bazaar["info"]
        declared = declare_mcp_discovery_extension(DeclareMcpDiscoveryConfig(
            tool_name=TOOL, description=info["input"]["description"], transport="streamable-http",
            input_schema=tool.input_schema, example={"tier": "medium"},
            output=OutputConfig(example=info["output"]["example"],
                                schema=bazaar["schema"]["properties"]["output"]["properties"]["example"]),
        ))["bazaar"]
        self.assertEqual(info, declared["info"])
        # The PyPI helper's transport enum lists both transports; npm's (which the arcade
        # follows) lists the one declared. Everything else is the helper's shape.
        transport = declared["schema"]["properties"]["input"]["properties"]["transport"]
        self.assertEqual(transport["enum"], ["streamable-http", "sse"])
        transport["enum"] = ["streamable-http"]
        self.assertEqual(bazaar["schema"], declared["schema"])
        print(f"\nbazaar MCP form: {info['input']['type']} {info['input']['toolName']} over "
              f"{info['input']['transport']}, valid for both of the SDK's validators")


if __name__ == "__main__":
    unittest.main()
