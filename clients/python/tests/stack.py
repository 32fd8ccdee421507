"""The dev stack for the client's tests: the arcade binary (ARCADE_BIN) started as `arcade dev`
by the api-python suite's harness (its own anvil, test dollar and funded demo payer), players to
play it with, the package's source on the path, and the lying proxy (clients/npm/test/proxy.mjs)
driven from Python."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import requests
from eth_account import Account

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
sys.path.insert(0, str(HERE.parent / "src"))
sys.path.insert(0, str(ROOT / "tests" / "api-python"))

from arcade_process import ArcadeProcess  # noqa: E402

#: anvil's public test account 1: the dev chain's funded demo payer.
DEMO_PAYER_KEY = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d"


def start_stack(rate_limits: bool = True) -> ArcadeProcess:
    """`arcade dev` on free ports; `rate_limits=False` for suites that play hundreds of rounds."""
    if not rate_limits:
        os.environ["ARCADE__RATE_LIMITS__ENABLED"] = "false"
    try:
        return ArcadeProcess("dev")
    finally:
        os.environ.pop("ARCADE__RATE_LIMITS__ENABLED", None)


def free_player(base_url: str) -> Any:
    """A fresh player with the free chips (100, play money) claimed."""
    account = Account.create()
    response = requests.post(f"{base_url}/api/arcade/free", json={"address": account.address}, timeout=10)
    response.raise_for_status()
    return account


class CountingAccount:
    """An account with every signature it is asked for counted."""

    def __init__(self, account: Any) -> None:
        self.account = account
        self.address = account.address
        self.signatures = {"messages": 0, "typed_data": 0}

    def sign_message(self, *args: Any, **kwargs: Any) -> Any:
        self.signatures["messages"] += 1
        return self.account.sign_message(*args, **kwargs)

    def sign_typed_data(self, *args: Any, **kwargs: Any) -> Any:
        self.signatures["typed_data"] += 1
        return self.account.sign_typed_data(*args, **kwargs)
