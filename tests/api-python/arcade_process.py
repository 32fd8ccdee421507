"""The built `arcade` binary on free ports over a fresh SQLite file, for the Python suites:
`serve` (no chain) or `dev` (its own anvil, the test dollar and a funded demo payer)."""

import os
import re
import subprocess
import tempfile
import threading


class ArcadeProcess:
    """Starts `$ARCADE_BIN <command>`; reads its URL (and, for `dev`, its chain) from its log."""

    def __init__(self, command="serve"):
        binary = os.environ.get("ARCADE_BIN")
        if not binary:
            raise RuntimeError("ARCADE_BIN must point at the built arcade binary (tests/run.sh sets it)")
        self.dir = tempfile.TemporaryDirectory(prefix="arcade-python-")
        env = {k: v for k, v in os.environ.items() if k != "RUST_LOG"}
        env.update({
            "ARCADE__SERVER__PORT": "0",
            "ARCADE__DATABASE__URL": f"sqlite://{self.dir.name}/arcade.db?mode=rwc",
            "ARCADE__LOG__FILTER": "info",
        })
        args = [binary, command]
        if command == "dev":
            args += ["--chain-port", "0"]
            if os.environ.get("ARCADE_ANVIL_BIN"):
                args += ["--anvil", os.environ["ARCADE_ANVIL_BIN"]]
        self.process = subprocess.Popen(
            args, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            cwd=os.environ.get("ARCADE_ROOT", "."),
        )
        self.output = []
        ready = threading.Event()
        self.base_url = self.rpc_url = self.token = None

        def read():
            for line in self.process.stdout:
                self.output.append(line)
                if m := re.search(r"dev chain ready rpc=(\S+) token=(\S+)", line):
                    self.rpc_url, self.token = m.group(1), m.group(2)
                if m := re.search(r"arcade listening url=(http://[\d.]+:\d+)", line):
                    self.base_url = m.group(1)
                    ready.set()
        threading.Thread(target=read, daemon=True).start()
        if not ready.wait(60):
            self.stop()
            raise RuntimeError(f"arcade {command} did not start:\n" + "".join(self.output))

    def stop(self):
        self.process.terminate()
        self.process.wait(30)
        self.dir.cleanup()
