"""The OpenAPI document against the server, by schemathesis with every check, every phase
(examples, coverage, fuzzing, stateful) and no hooks: what the document declares is all it goes
by, as any client that reads only the document. `arcade dev` (its own anvil and test dollar,
house agents playing) on free ports. Exits with schemathesis's status."""

import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "api-python"))

from arcade_process import ArcadeProcess  # noqa: E402


def main():
    # A fuzzer is a flood by design: the rate limits would answer most of it, and its refused
    # plays leave rounds open past the cap on open rounds. Both have tests of their own.
    os.environ["ARCADE__RATE_LIMITS__ENABLED"] = "false"
    os.environ["ARCADE__ROUNDS__MAX_OPEN_PER_ADDRESS"] = "1000000"
    arcade = ArcadeProcess("dev")
    try:
        env = {k: v for k, v in os.environ.items() if k != "SCHEMATHESIS_HOOKS"}
        command = [
            os.path.join(os.path.dirname(sys.executable), "schemathesis"),
            "--config-file", os.path.join(HERE, "schemathesis.toml"),
            "run", f"{arcade.base_url}/openapi.json",
            *sys.argv[1:],
        ]
        print("running:", " ".join(command), flush=True)
        return subprocess.call(command, env=env, cwd=HERE)
    finally:
        arcade.stop()


if __name__ == "__main__":
    sys.exit(main())
