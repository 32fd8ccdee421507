"""The Python verdicts equal the JavaScript ones: the same receipts (good rounds of every game
from the dev stack, and each lie a house could tell) judged by this package's composition over
the wasm module under wasmtime, and by the shared checking module (audit/) over the
wasm-bindgen builds under Node, give the same verdict and the same failed checks, in order."""

from __future__ import annotations

import copy
import json
import os
import subprocess
import tempfile
import unittest
from typing import Any

import requests
from stack import ROOT, free_player, start_stack
from test_liars import flip_hex

from arcade_client import Arcade
from arcade_client._wasm import verifiers
from arcade_client.checks.batches import signed_batches
from arcade_client.checks.trust import read_trust
from arcade_client.checks.verdicts import judge_round

OTHER = "0x000000000000000000000000000000000000dEaD"


def lie(receipt: dict[str, Any], change: Any) -> dict[str, Any]:
    changed = copy.deepcopy(receipt)
    change(changed)
    return changed


def other_outcome(receipt: dict[str, Any]) -> None:
    """The result's outcome changed, in the game's own field."""
    result = receipt["result"]
    if "outcome" in result:
        result["outcome"] = "tails" if result["outcome"] == "heads" else "heads"
    elif "roll_hundredths" in result:
        result["roll_hundredths"] = (result["roll_hundredths"] + 1) % 10001
        result["roll"] = result["roll_hundredths"] / 100
    elif "pocket" in result:
        result["pocket"] = (result["pocket"] + 1) % 37
    else:
        result["result_hundredths"] += 1


def receipt_lies(r: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Each field a house could rewrite, one per receipt."""
    return {
        "outcome": lie(r, other_outcome),
        "payout": lie(r, lambda x: x.update(payout=x["payout"] + 1)),
        "server seed": lie(r, lambda x: x.update(server_seed=flip_hex(x["server_seed"]))),
        "receipt signature": lie(r, lambda x: x["proofs"]["receipt"].update(signature=x["proofs"]["receipt"]["signature"][:-4] + "0000")),
        "commitment signature": lie(r, lambda x: x["proofs"]["commitment"].update(signature=flip_hex(x["proofs"]["commitment"]["signature"][:-2]) + "1b")),
        "play signature": lie(r, lambda x: x["proofs"]["play"].update(signature=x["proofs"]["receipt"]["signature"])),
        "audit path": lie(r, lambda x: x["proofs"]["batch"]["audit_path"].__setitem__(0, flip_hex(x["proofs"]["batch"]["audit_path"][0]))),
        "batch size": lie(r, lambda x: x["proofs"]["batch"].update(size=x["proofs"]["batch"]["size"] + 1)),
        "nonce": lie(r, lambda x: x.update(nonce=1)),
        "unknown game": lie(r, lambda x: x.update(game="blackjack")),
        "proofs stripped": lie(r, lambda x: x.update(proofs={"batch": None, "commitment": None, "receipt": None})),
        "wager": lie(r, lambda x: x.update(wager=x["wager"] + 1)),
    }


class SameVerdicts(unittest.TestCase):
    def test_python_verdicts_equal_the_shared_modules(self) -> None:
        stack = start_stack()
        try:
            arcade = Arcade.connect(stack.base_url, account=free_player(stack.base_url))
            played = [arcade.flip(wager=1, call="heads"), arcade.dice(wager=1, target=30), arcade.roulette(wager=1, bet="odd"),
                      arcade.roulette(wager=1, bet="straight", number=0), arcade.limbo(wager=1, target="3.33")]
            manifest = requests.get(f"{stack.base_url}/api/arcade/manifest", timeout=10).json()
            batches = requests.get(f"{stack.base_url}/api/arcade/seed-batches", timeout=10).json()
        finally:
            stack.stop()
        cases = self.cases([p.receipt for p in played], manifest, batches)
        python = [self.judge(case) for case in cases]
        node = self.judge_in_node(cases)
        self.assertEqual(len(node), len(python))
        for mine, theirs in zip(python, node):
            self.assertEqual(mine, theirs, mine["name"])
        for verdict in python:
            expected = "pass" if verdict["name"].startswith("good") else \
                "consistent, not proven" if verdict["name"] == "reader's unsigned" else "fail"
            self.assertEqual(verdict["verdict"], expected, verdict)
        checks = sorted({c for v in python for c in v["checks"]})
        print(f"\ncross-check: {len(python)} cases, Python verdicts = JS verdicts (verdict, failed checks in order); checks met: {', '.join(checks)}")

    def cases(self, receipts: list[dict[str, Any]], manifest: Any, batches: Any) -> list[dict[str, Any]]:
        base = {"manifest": manifest, "batches": batches, "pin": {"signer": manifest["signer"]}}
        player = receipts[0]["address"]
        cases = [{**base, "name": f"good {r['game']} {r['bet_id']}", "receipt": r, "options": {"player": player}} for r in receipts]
        for receipt in receipts:
            for name, lied in receipt_lies(receipt).items():
                cases.append({**base, "name": f"{name} ({receipt['game']})", "receipt": lied})
        roots = [{**b, "merkle_root": flip_hex(b["merkle_root"])} for b in batches]
        cases.append({**base, "name": "batch roots", "batches": roots, "receipt": receipts[0]})
        cases.append({**base, "name": "signer in the manifest", "manifest": {**manifest, "signer": OTHER}, "receipt": receipts[0]})
        cases.append({**base, "name": "another player", "receipt": receipts[0], "options": {"player": OTHER}})
        cases.append({**base, "name": "asked another bet", "receipt": receipts[0], "options": {"asked": receipts[0]["bet_id"] + 1}})
        cases.append({**base, "name": "reader's unsigned", "receipt": receipt_lies(receipts[0])["proofs stripped"],
                      "options": {"from": "reader"}})
        return cases

    def judge(self, case: dict[str, Any]) -> dict[str, Any]:
        v = verifiers()
        trust = read_trust(v, case["manifest"], case["pin"])
        context = {"wasm": v, "trust": trust, "batches": signed_batches(v, trust, case["batches"])}
        options = dict(case.get("options") or {})
        if "from" in options:
            options["source"] = options.pop("from")
        verdict = judge_round(context, case["receipt"], **options)
        return {"name": case["name"], "verdict": verdict["verdict"], "check": verdict["check"],
                "checks": [f["check"] for f in verdict["failures"]]}

    def judge_in_node(self, cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
        env = {**os.environ,
               "ARCADE_WASM": str(ROOT / "wasm" / "pkg-node" / "arcade.js"),
               "ARCADE_PROOFS": str(ROOT / "proofs-wasm" / "pkg-node" / "arcade_proofs.js")}
        with tempfile.NamedTemporaryFile("w", suffix=".json") as file:
            json.dump(cases, file)
            file.flush()
            out = subprocess.run(["node", str(ROOT / "clients" / "python" / "tests" / "judge.mjs"), file.name],
                                 env=env, capture_output=True, text=True, timeout=120, check=True)
        result: list[dict[str, Any]] = json.loads(out.stdout)
        return result


if __name__ == "__main__":
    unittest.main()
