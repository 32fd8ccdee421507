"""The container image, run as an operator runs it: two containers of deploy/Containerfile on one
PostgreSQL, configured by environment, the example settings mounted, every secret a podman
secret read through its `_FILE` variable.

- The image is built with Podman from the release tarball (`ARCADE_RELEASE`), its size printed.
- Both containers report healthy (the image's HEALTHCHECK, `arcade health`).
- A player buys chips over x402 through one, plays a round of every game through the other (each
  verified by the npm arcade-client: re-derived, every signature and its seed batch checked) and
  cashes out through the first, confirmed on the chain.
- `podman stop` with plays in flight is a graceful shutdown: the container exits 0 after saying
  it finished what was in flight, and every play it answered is settled in the database the
  other container serves.
- The chain agrees with the books: the tokens paid to `pay_to` are the chips credited (100 base
  units each), the tokens that left the house are the confirmed cashouts.

PostgreSQL is the test cluster on loopback, anvil the Base Sepolia stand-in of
test_operations.py; the containers share the host's network (`--network=host`). What of
deploy/compose.yaml needs pulled images (postgres, caddy) is not run here.
"""

import json
import os
import secrets
import subprocess
import sys
import tempfile
import threading
import time
import unittest
import urllib.request

import requests
from eth_account import Account

ROOT = os.environ.get("ARCADE_ROOT", ".")
sys.path.insert(0, os.path.join(ROOT, "tests", "api-python"))
from test_operations import USDC, BaseSepoliaOnAnvil, free_port  # noqa: E402

PODMAN = os.environ.get("ARCADE_PODMAN", "podman --runtime runc --cgroup-manager=cgroupfs").split()
IMAGE = "localhost/arcade:test"
SECRETS = ["database.url", "chain.rpc_urls", "chain.house_key", "signing.key", "seeds.secret", "auth.secret"]


def podman(*args, check=True, capture=True):
    done = subprocess.run([*PODMAN, *args], capture_output=capture, text=True, timeout=600)
    if check and done.returncode != 0:
        raise AssertionError(f"podman {' '.join(args)}: {done.returncode}\n{done.stdout}\n{done.stderr}")
    return done


def psql(admin_url, sql):
    subprocess.run(["psql", admin_url, "-v", "ON_ERROR_STOP=1", "-qc", sql], check=True,
                   capture_output=True, text=True)


class Containers(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        # Whatever the setup got to is undone even when it fails half way (unittest does not
        # call tearDownClass then).
        cls.addClassCleanup(cls.clean_up)
        release = os.environ["ARCADE_RELEASE"]
        version = os.path.basename(release).removeprefix("arcade-").split("-x86_64")[0]
        started = time.monotonic()
        podman("build", "--pull=never", "--format", "docker", "--build-arg", f"VERSION={version}",
               "-f", os.path.join(ROOT, "deploy", "Containerfile"), "-t", IMAGE, os.path.dirname(release))
        size = podman("image", "inspect", IMAGE, "--format", "{{.Size}}").stdout.strip()
        print(f"\nimage {IMAGE}: {int(size):,} bytes, built in {time.monotonic() - started:.0f} s", flush=True)

        cls.chain = BaseSepoliaOnAnvil()
        cls.house = Account.create()
        cls.chain.fund(cls.house.address, 100, eth=10)
        cls.payer = Account.create()
        cls.chain.fund(cls.payer.address, 10, eth=1)
        cls.start_tokens = cls.chain.tokens(cls.house.address)

        admin = os.environ["ARCADE_TEST_POSTGRES_URL"]
        cls.database = f"arcade_containers_{secrets.token_hex(4)}"
        psql(admin, f"CREATE DATABASE {cls.database}")
        server, _ = admin.rsplit("/", 1)
        values = {
            "database.url": f"{server}/{cls.database}",
            "chain.rpc_urls": cls.chain.rpc_url,
            "chain.house_key": cls.house.key.hex() if cls.house.key.hex().startswith("0x") else "0x" + cls.house.key.hex(),
            "signing.key": "0x" + secrets.token_hex(32),
            "seeds.secret": secrets.token_hex(32),
            "auth.secret": secrets.token_hex(32),
        }
        cls.suffix = secrets.token_hex(3)
        cls.secret_names = []
        with tempfile.TemporaryDirectory() as staging:
            for name, value in values.items():
                path = os.path.join(staging, name)
                with open(path, "w") as f:
                    f.write(value + "\n")
                secret = f"arcade-{cls.suffix}-{name}"
                podman("secret", "create", secret, path)
                cls.secret_names.append((secret, name))
        cls.instances = []
        for index in range(2):
            cls.instances.append(cls.run_instance(index))
        for name, url in cls.instances:
            cls.wait_healthy(name, url)

    @classmethod
    def run_instance(cls, index):
        name = f"arcade-{cls.suffix}-{index}"
        port, metrics = free_port(), free_port()
        args = ["run", "-d", "--name", name, "--network=host",
                "-v", f"{os.path.join(ROOT, 'deploy', 'base-sepolia.toml')}:/etc/arcade/arcade.toml:ro",
                "-e", "ARCADE_CONFIG=/etc/arcade/arcade.toml",
                "-e", "ARCADE__SERVER__HOST=127.0.0.1", "-e", f"ARCADE__SERVER__PORT={port}",
                "-e", f"ARCADE__METRICS__LISTEN=127.0.0.1:{metrics}",
                "-e", "ARCADE__RATE_LIMITS__ENABLED=false"]
        for secret, setting in cls.secret_names:
            target = f"/run/secrets/{setting}"
            args += ["--secret", f"{secret},type=mount,target={target},uid=10001,mode=0400",
                     "-e", f"ARCADE__{setting.replace('.', '__').upper()}_FILE={target}"]
        podman(*args, IMAGE)
        return name, f"http://127.0.0.1:{port}"

    @classmethod
    def wait_healthy(cls, name, url):
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            if podman("healthcheck", "run", name, check=False).returncode == 0:
                health = podman("inspect", name, "--format", "{{.State.Health.Status}}").stdout.strip()
                print(f"{name} at {url}: {health}", flush=True)
                return
            time.sleep(1)
        raise AssertionError(f"{name} never became healthy:\n{podman('logs', name).stdout}{podman('logs', name).stderr}")

    @classmethod
    def clean_up(cls):
        for name, _ in getattr(cls, "instances", []):
            podman("rm", "-f", name, check=False)
        for secret, _ in getattr(cls, "secret_names", []):
            podman("secret", "rm", secret, check=False)
        if hasattr(cls, "chain"):
            cls.chain.stop()

    def test_1_a_session_across_both_instances(self):
        (_, a), (_, b) = self.instances
        key = self.payer.key.hex()
        env = {**os.environ, "PAYER_KEY": key if key.startswith("0x") else "0x" + key}
        done = subprocess.run(["node", os.path.join(ROOT, "tests", "deploy", "session.mjs"), a, b],
                              env=env, capture_output=True, text=True, timeout=300)
        print(done.stdout, end="", flush=True)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(self.chain.tokens(self.house.address) - self.start_tokens, 100_000 - 50_000,
                         "0.10 paid in to the house (its own pay_to), 0.05 cashed out")

    def test_2_stop_is_graceful(self):
        (first, a), (_, b) = self.instances
        player = Account.create()
        statement = requests.get(f"{b}/api/arcade/auth-statement/{player.address}", timeout=10).json()["statement"]
        from eth_account.messages import encode_defunct
        signature = Account.sign_message(encode_defunct(text=statement), player.key).signature.hex()
        signature = signature if signature.startswith("0x") else "0x" + signature
        requests.post(f"{b}/api/arcade/free", json={"address": player.address}, timeout=10).raise_for_status()
        rounds = [requests.post(f"{b}/api/arcade/commit", json={"address": player.address, "signature": signature},
                                timeout=10).json()["round_id"] for _ in range(24)]
        answered, errors = [], []

        def play(round_id):
            try:
                r = requests.post(f"{a}/api/arcade/flip", timeout=30, json={
                    "round_id": round_id, "client_seed": secrets.token_hex(16), "wager": 1, "call": "heads"})
                if r.status_code == 200:
                    answered.append(r.json()["bet_id"])
                else:
                    errors.append((r.status_code, r.text))
            except requests.RequestException as error:  # refused once the listener closed
                errors.append(("no connection", type(error).__name__))

        threads = [threading.Thread(target=play, args=(round_id,)) for round_id in rounds]
        for i, thread in enumerate(threads):
            thread.start()
            if i == len(threads) // 2:
                stopper = threading.Thread(target=lambda: podman("stop", "-t", "40", first))
                stopper.start()
        for thread in threads:
            thread.join()
        stopper.join()
        code = podman("inspect", first, "--format", "{{.State.ExitCode}}").stdout.strip()
        logs = podman("logs", first).stdout + podman("logs", first).stderr
        print(f"podman stop {first}: exit {code}; {len(answered)} plays answered, {len(errors)} refused "
              f"at the closed door ({sorted(set(str(e[0]) for e in errors))})", flush=True)
        self.assertEqual(code, "0", logs[-2000:])
        self.assertIn("shutting down: finishing requests in flight", logs)
        self.assertIn("arcade stopped", logs)
        self.assertTrue(answered, "some plays were answered before the stop")
        for status, _ in errors:
            self.assertEqual(status, "no connection", errors)
        for bet_id in answered:
            verified = requests.get(f"{b}/api/arcade/verify/{bet_id}", timeout=10).json()
            self.assertEqual(verified["bet_id"], bet_id)
        # Every round answered is spent; the others are still open, playable at the other.
        left = [r for r in rounds if requests.get(f"{b}/api/arcade/rounds/{r}", timeout=10).json().get("state") == "open"]
        self.assertEqual(len(left), len(rounds) - len(answered))
        podman("start", first)
        self.wait_healthy(first, a)


if __name__ == "__main__":
    unittest.main()
