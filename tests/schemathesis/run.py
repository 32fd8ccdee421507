"""The OpenAPI document against the server, by schemathesis: `arcade dev` (its own anvil and
test dollar, house agents playing) on free ports, a funded player prepared, then every phase
(examples, coverage, fuzzing, stateful) with every check. Exits with schemathesis's status."""

import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "api-python"))
sys.path.insert(0, HERE)

from arcade_process import ArcadeProcess  # noqa: E402
from payer import Player  # noqa: E402


def main():
    # A fuzzer is a flood by design: the rate limits would answer most of it, and its refused
    # plays leave rounds open past the cap on open rounds. Both have tests of their own.
    os.environ["ARCADE__RATE_LIMITS__ENABLED"] = "false"
    os.environ["ARCADE__ROUNDS__MAX_OPEN_PER_ADDRESS"] = "1000000"
    arcade = ArcadeProcess("dev")
    try:
        player = Player(arcade.base_url)
        requests_free = __import__("requests").post(
            f"{arcade.base_url}/api/arcade/free", json={"address": player.address}, timeout=30
        )
        print("free chips:", requests_free.status_code, flush=True)
        print("bought:", player.buy("/api/arcade/chips/medium")["chips_credited"], flush=True)
        statuses = os.path.join(tempfile.mkdtemp(prefix="arcade-st-"), "statuses.json")
        env = dict(os.environ, ARCADE_ST_BASE_URL=arcade.base_url, SCHEMATHESIS_HOOKS="hooks",
                   ARCADE_ST_STATUSES=statuses,
                   PYTHONPATH=HERE + os.pathsep + os.environ.get("PYTHONPATH", ""))
        command = [
            os.path.join(os.path.dirname(sys.executable), "schemathesis"),
            "--config-file", os.path.join(HERE, "schemathesis.toml"),
            "run", f"{arcade.base_url}/api/openapi.json",
            *sys.argv[1:],
        ]
        print("running:", " ".join(command), flush=True)
        status = subprocess.call(command, env=env, cwd=HERE)
        return status or every_operation_succeeded(statuses, f"{arcade.base_url}/api/openapi.json")
    finally:
        arcade.stop()


def every_operation_succeeded(statuses_file, document_url):
    """Each operation of the document got at least one 2xx during the run: the success paths
    were reached, not only the refusals."""
    import requests

    document = requests.get(document_url, timeout=30).json()
    operations = [f"{m.upper()} {p}" for p, ops in document["paths"].items() for m in ops]
    with open(statuses_file) as counts:
        statuses = json.load(counts)
    print("\nstatuses per operation:")
    missing = []
    for operation in sorted(operations):
        seen = statuses.get(operation, {})
        print(f"  {operation}: {dict(sorted(seen.items()))}")
        if not any(code.startswith("2") for code in seen):
            missing.append(operation)
    if missing:
        print("no success reached for:", ", ".join(missing))
        return 1
    print(f"every one of the {len(operations)} operations answered 2xx at least once")
    return 0


if __name__ == "__main__":
    sys.exit(main())
