"""The operator's path, end to end: `deploy/base-sepolia.toml` as an operator would use it.

A local anvil runs as chain 84532 with the test dollar at Base Sepolia USDC's address, under
USDC's EIP-712 domain (`USDC`, `2`). Only the secrets, the RPC URL, the database and the port
come from the environment, as `deploy/README.md` says.

- `arcade doctor` passes on the example (exit 0). It fails with exit 1 on a wrong chain id, a
  wrong token and an unfunded house.
- `arcade serve` refuses to start on the first two. With an unfunded house it starts, and
  `/readyz` names the failing balances.
- With the example as it stands:
  - PyPI x402 buys chips;
  - a round is played and a cashout is paid;
  - `/metrics`, read with prometheus_client's own parser, moved by exactly those;
  - the JSON logs carry each money step once, under the request id the answer returned.
"""

import json
import os
import secrets
import socket
import subprocess
import tempfile
import threading
import time
import unittest

import requests
from eth_account import Account
from eth_account.messages import encode_defunct
from prometheus_client.parser import text_string_to_metric_families
from web3 import Web3
from x402 import x402ClientSync
from x402.http.clients import x402_requests
from x402.mechanisms.evm import EthAccountSigner
from x402.mechanisms.evm.exact.register import register_exact_evm_client

ROOT = os.environ.get("ARCADE_ROOT", ".")
EXAMPLE = os.path.join(ROOT, "deploy", "base-sepolia.toml")
USDC = Web3.to_checksum_address("0x036CbD53842c5426634e7929541eC2318f3dCF7e")
# anvil's public test account 0: deploys the test dollar, and so may mint it.
DEPLOYER = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
DOLLAR = 1_000_000


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class BaseSepoliaOnAnvil:
    """anvil as chain 84532, a block a second, the test dollar at USDC's address."""

    def __init__(self):
        anvil = os.environ.get("ARCADE_ANVIL_BIN") or os.path.join(
            ROOT, "server/devnet/node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil")
        port = free_port()
        self.process = subprocess.Popen(
            [anvil, "--chain-id", "84532", "--port", str(port), "--block-time", "1"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.rpc_url = f"http://127.0.0.1:{port}"
        self.web3 = Web3(Web3.HTTPProvider(self.rpc_url))
        for _ in range(100):
            if self.web3.is_connected():
                break
            time.sleep(0.1)
        assert self.web3.eth.chain_id == 84532
        with open(os.path.join(ROOT, "server/devnet/TestDollar.json")) as f:
            artefact = json.load(f)
        self.abi = artefact["abi"]
        deployed = self.deploy(artefact, "USDC", "2")
        # The same code and the same first slots (the name and version strings among them) at
        # USDC's address: the token the example settings name, under its real domain.
        self.rpc("anvil_setCode", [USDC, self.web3.eth.get_code(deployed).to_0x_hex()])
        for slot in range(8):
            value = self.web3.eth.get_storage_at(deployed, slot)
            self.rpc("anvil_setStorageAt", [USDC, hex(slot), "0x" + value.hex().removeprefix("0x").rjust(64, "0")])
        self.usdc = self.web3.eth.contract(address=USDC, abi=self.abi)
        # A second token under Base mainnet's name: the wrong token for this chain.
        self.usd_coin = self.deploy(artefact, "USD Coin", "2")

    def deploy(self, artefact, name, version):
        factory = self.web3.eth.contract(abi=artefact["abi"], bytecode=artefact["bytecode"])
        tx = factory.constructor(name, version).transact({"from": DEPLOYER})
        return self.web3.eth.wait_for_transaction_receipt(tx, timeout=30)["contractAddress"]

    def rpc(self, method, params):
        answer = self.web3.provider.make_request(method, params)
        assert "error" not in answer, answer

    def fund(self, address, dollars, eth=0):
        tx = self.usdc.functions.mint(address, dollars * DOLLAR).transact({"from": DEPLOYER})
        self.web3.eth.wait_for_transaction_receipt(tx, timeout=30)
        if eth:
            self.rpc("anvil_setBalance", [address, hex(eth * 10**18)])

    def tokens(self, address):
        return self.usdc.functions.balanceOf(address).call()

    def stop(self):
        self.process.terminate()
        self.process.wait(10)


class Arcade:
    """`arcade <command> --config deploy/base-sepolia.toml` with secrets from the environment."""

    def __init__(self, chain, house_key, **overrides):
        self.dir = tempfile.TemporaryDirectory(prefix="arcade-ops-")
        self.port = free_port()
        self.env = {k: v for k, v in os.environ.items() if k != "RUST_LOG"}
        self.env.update({
            "ARCADE__CHAIN__RPC_URLS": chain.rpc_url,
            "ARCADE__CHAIN__HOUSE_KEY": house_key,
            "ARCADE__SIGNING__KEY": "0x" + secrets.token_hex(32),
            "ARCADE__AUTH__SECRET": secrets.token_hex(16),
            "ARCADE__SEEDS__SECRET": secrets.token_hex(16),
            "ARCADE__DATABASE__URL": f"sqlite://{self.dir.name}/arcade.db?mode=rwc",
            "ARCADE__SERVER__PORT": str(self.port),
        })
        # The example serves /metrics on its own loopback port (its public URL is not loopback,
        # so the main port serves none): a free one here.
        metrics_port = free_port()
        self.env["ARCADE__METRICS__LISTEN"] = f"127.0.0.1:{metrics_port}"
        self.env.update(overrides)
        self.base_url = f"http://127.0.0.1:{self.port}"
        self.metrics_url = f"http://127.0.0.1:{metrics_port}"
        self.process = None
        self.lines = []

    def run(self, command):
        done = subprocess.run([os.environ["ARCADE_BIN"], command, "--config", EXAMPLE], env=self.env,
                              cwd=ROOT, capture_output=True, text=True, timeout=120)
        return done.returncode, done.stdout + done.stderr

    def serve(self):
        self.process = subprocess.Popen([os.environ["ARCADE_BIN"], "serve", "--config", EXAMPLE],
                                        env=self.env, cwd=ROOT, stdout=subprocess.PIPE,
                                        stderr=subprocess.STDOUT, text=True)
        listening = threading.Event()

        def read():
            for line in self.process.stdout:
                self.lines.append(line)
                if "arcade listening" in line:
                    listening.set()
        threading.Thread(target=read, daemon=True).start()
        listening.wait(60)
        return self.process

    def logged(self):
        """The JSON log lines so far, parsed."""
        return [json.loads(line) for line in list(self.lines) if line.startswith("{")]

    def ready(self, expect=200, settled=lambda body: True, timeout=30):
        """Polls `/readyz` until it answers `expect` with a body that `settled` accepts (the
        treasury watch's first reading lands a moment after the start), or the time is up."""
        deadline = time.time() + timeout
        while True:
            reply = requests.get(f"{self.base_url}/readyz", timeout=5)
            if (reply.status_code == expect and settled(reply.json())) or time.time() > deadline:
                return reply
            time.sleep(0.2)

    def stop(self):
        if self.process:
            if self.process.poll() is None:
                self.process.terminate()
                self.process.wait(30)
            self.process.stdout.close()
        self.dir.cleanup()


def scrape(base_url):
    """`/metrics` through prometheus_client's text parser: {(sample, labels): value}."""
    text = requests.get(f"{base_url}/metrics", timeout=10).text
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def moved(before, after, name, **labels):
    key = (name, tuple(sorted(labels.items())))
    return after.get(key, 0) - before.get(key, 0)


class BaseSepoliaExample(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.chain = BaseSepoliaOnAnvil()
        cls.house = Account.create()
        cls.chain.fund(cls.house.address, 1000, eth=10)

    @classmethod
    def tearDownClass(cls):
        cls.chain.stop()

    def arcade(self, house_key=None, **overrides):
        arcade = Arcade(self.chain, house_key or self.house.key.to_0x_hex(), **overrides)
        self.addCleanup(arcade.stop)
        self.assertEqual(arcade.run("migrate")[0], 0)
        return arcade

    def test_doctor_passes_on_the_example_settings(self):
        code, output = self.arcade().run("doctor")
        print("\narcade doctor (deploy/base-sepolia.toml, chain 84532):\n" + output)
        self.assertEqual(code, 0, output)
        checks = [line for line in output.splitlines() if line[:1] in "✔✘"]
        self.assertGreaterEqual(len(checks), 12, output)
        self.assertTrue(all(line.startswith("✔") for line in checks), output)
        self.assertIn('EIP-712 name "USDC" version "2"', output)

    def test_doctor_and_serve_refuse_the_wrong_chain(self):
        arcade = self.arcade(ARCADE__CHAIN__CHAIN_ID="8453")
        code, output = arcade.run("doctor")
        print("\narcade doctor, chain_id 8453 against chain 84532:\n" + output)
        self.assertEqual(code, 1, output)
        self.assertIn("✘ RPC: the RPC serves chain 84532, but chain.chain_id is 8453", output)
        code, output = arcade.run("serve")
        self.assertEqual(code, 1, output)
        self.assertIn("refusing to start", output)

    def test_doctor_and_serve_refuse_the_wrong_token(self):
        arcade = self.arcade(ARCADE__CHAIN__TOKEN=self.chain.usd_coin)
        code, output = arcade.run("doctor")
        print("\narcade doctor, chain.token a token named \"USD Coin\":\n" + output)
        self.assertEqual(code, 1, output)
        self.assertIn('answers EIP-712 name "USD Coin", but chain.token_name is "USDC"', output)
        code, output = arcade.run("serve")
        self.assertEqual(code, 1, output)
        self.assertIn("refusing to start", output)

    def test_an_unfunded_house_fails_the_doctor_and_the_readiness(self):
        arcade = self.arcade(house_key=Account.create().key.to_0x_hex())
        code, output = arcade.run("doctor")
        print("\narcade doctor, an unfunded house key:\n" + output)
        self.assertEqual(code, 1, output)
        self.assertIn("✘ house gas: 0 wei, under the floor", output)
        self.assertIn("✘ house tokens: 0 base units, under the floor", output)
        # Not a reason to refuse the start: the instance serves and says it is not ready.
        self.assertIsNone(arcade.serve().poll(), "".join(arcade.lines))
        # Before the watch's first reading the balances are "unknown"; wait for the reading.
        read = lambda body: not body["checks"]["house_gas"].startswith("unknown")
        reply = arcade.ready(expect=503, settled=read)
        self.assertEqual(reply.status_code, 503, reply.text)
        body = reply.json()
        self.assertEqual(body["code"], "not_ready")
        self.assertIn("under its floor", body["checks"]["house_gas"])
        self.assertIn("under its floor", body["checks"]["house_token"])
        def warnings():
            return [line for line in arcade.logged() if line.get("level") == "WARN"
                    and "fell under its floor" in line["fields"].get("message", "")]
        # The log lines reach this process through a reader thread: give them a moment.
        deadline = time.time() + 5
        while len(warnings()) < 2 and time.time() < deadline:
            time.sleep(0.1)
        self.assertEqual(len(warnings()), 2, "once per balance: " + "".join(arcade.lines))

    def test_buys_plays_cashes_out_and_the_metrics_and_logs_say_so(self):
        arcade = self.arcade()
        self.assertIsNone(arcade.serve().poll(), "".join(arcade.lines))
        self.assertEqual(arcade.ready().status_code, 200, "".join(arcade.lines))
        base = arcade.base_url
        self.assertEqual(requests.get(f"{base}/metrics", timeout=10).status_code, 404,
                         "a service with a public URL serves no /metrics on its main port")
        before = scrape(arcade.metrics_url)

        challenge = requests.get(f"{base}/api/arcade/chips/small", timeout=10).json()
        offer = challenge["accepts"][0]
        self.assertEqual((offer["network"], Web3.to_checksum_address(offer["asset"])), ("eip155:84532", USDC))
        self.assertEqual(offer["extra"], {"name": "USDC", "version": "2"})

        player = Account.create()
        self.chain.fund(player.address, 5)
        client = x402ClientSync()
        register_exact_evm_client(client, EthAccountSigner(player))
        with x402_requests(client) as session:
            bought = session.post(f"{base}/api/arcade/chips/small", timeout=90)
        self.assertEqual(bought.status_code, 200, bought.text)
        purchase = bought.json()
        self.assertEqual(purchase["chips_credited"], 1000)

        statement = requests.get(f"{base}/api/arcade/auth-statement/{player.address}", timeout=10).json()["statement"]
        signature = "0x" + player.sign_message(encode_defunct(text=statement)).signature.hex().removeprefix("0x")
        round_ = requests.post(f"{base}/api/arcade/commit",
                               json={"address": player.address, "signature": signature}, timeout=10).json()
        played = requests.post(f"{base}/api/arcade/flip", timeout=10, json={
            "round_id": round_["round_id"], "wager": 10, "client_seed": "ops", "call": "heads"}).json()
        self.assertIn("payout", played, played)

        cashout = requests.post(f"{base}/api/arcade/cashout", timeout=90, json={
            "address": player.address, "chips": 100, "signature": signature})
        self.assertEqual(cashout.status_code, 200, cashout.text)
        self.assertEqual(cashout.json()["status"], "confirmed")
        self.assertEqual(self.chain.tokens(player.address), 5 * DOLLAR - 100_000 + 10_000)

        after = scrape(arcade.metrics_url)
        print("\n/metrics after the session (arcade_ samples that moved):")
        for (name, labels), value in sorted(after.items()):
            if name.startswith("arcade_") and not name.startswith("arcade_http") and value != before.get((name, labels), 0):
                print(f"  {name}{dict(labels)} {before.get((name, labels), 0)} -> {value}")
        self.assertEqual(moved(before, after, "arcade_purchases_total", state="settled"), 1)
        self.assertEqual(moved(before, after, "arcade_purchases_total", state="failed"), 0)
        self.assertEqual(moved(before, after, "arcade_rounds_settled_total", game="coinflip"), 1)
        self.assertEqual(moved(before, after, "arcade_chips_wagered_total", game="coinflip"), 10)
        self.assertEqual(moved(before, after, "arcade_chips_paid_out_total", game="coinflip"), played["payout"])
        self.assertEqual(moved(before, after, "arcade_cashouts_total", state="confirmed"), 1)
        self.assertEqual(moved(before, after, "arcade_cashouts_total", state="failed"), 0)
        for route, method in [("/api/arcade/commit", "POST"), ("/api/arcade/flip", "POST"), ("/api/arcade/cashout", "POST")]:
            self.assertEqual(moved(before, after, "arcade_http_requests_total", method=method, route=route, status="200"), 1, route)
            self.assertEqual(moved(before, after, "arcade_http_request_duration_seconds_count", method=method, route=route), 1, route)
        self.assertEqual(after[("arcade_pending", (("kind", "cashout"),))], 0)
        self.assertEqual(after[("arcade_house_below_floor", (("balance", "gas"),))], 0)

        # Each money step once, with its ids, under the id the purchase's answer carried.
        logs = arcade.logged()

        def steps(message):
            return [line for line in logs if line["fields"].get("message") == message]
        credited = steps("credit: payment proven, chips credited")
        self.assertEqual(len(credited), 1, credited)
        self.assertEqual(credited[0]["fields"]["payment"], purchase["payment_id"])
        self.assertEqual(credited[0]["fields"]["tx"], purchase["tx_hash"])
        self.assertEqual(credited[0]["span"]["id"], bought.headers["x-request-id"])
        self.assertEqual(len(steps("purchase: authorization reserved")), 1)
        self.assertEqual(len(steps("settlement: transaction submitted")), 1)
        cashout_id = cashout.json()["cashout_id"]
        for message in ["cashout: chips debited", "cashout: transfer broadcast", "cashout: transfer confirmed"]:
            found = steps(message)
            self.assertEqual([line["fields"]["cashout"] for line in found], [cashout_id], message)
            self.assertEqual(found[0]["span"]["id"], cashout.headers["x-request-id"], message)


if __name__ == "__main__":
    unittest.main()
