"""The client's games (arcade_client.games) are the fairness core's: the games it plays, each call's
fields and limbo's target rule, held to the core's descriptions as the wasm package ships them
(wasm/js/games.js, which a core test holds to arcade_core::GAMES)."""

from __future__ import annotations

import json
import re
import unittest
from typing import Any

from stack import HERE  # and the package's src on the path

from arcade_client.games import GAME_OF, LIMBO_TARGET, hundredths, shape_of

GAMES_JS = HERE.parents[2] / "wasm" / "js" / "games.js"


def descriptions() -> list[dict[str, Any]]:
    text = GAMES_JS.read_text()
    start = text.index("const DESCRIPTIONS = ") + len("const DESCRIPTIONS = ")
    return json.loads(text[start : text.index(";\n", start)])


class TheGames(unittest.TestCase):
    def setUp(self) -> None:
        self.described = {d["name"]: d for d in descriptions()}

    def test_the_client_plays_every_game_the_core_describes(self) -> None:
        self.assertEqual(list(GAME_OF.values()), [d["name"] for d in descriptions()])

    def test_each_call_sends_the_described_fields_and_names_the_described_params(self) -> None:
        calls: dict[str, dict[str, Any]] = {
            "flip": {"call": "heads"},
            "dice": {"target": 40, "direction": "over"},
            "roulette": {"bet": "straight", "number": 7},
            "limbo": {"target": "2.5"},
        }
        for endpoint, call in calls.items():
            game = self.described[GAME_OF[endpoint]]
            body, params = shape_of(endpoint, call)  # type: ignore[arg-type]
            self.assertEqual(sorted(body), sorted(f["name"] for f in game["call"]), endpoint)
            self.assertEqual(sorted(params), sorted(f["name"] for f in game["params"]), endpoint)

    def test_a_limbo_target_the_client_converts_is_one_the_core_reads(self) -> None:
        limbo = self.described["limbo"]
        pattern = re.compile(next(f for f in limbo["call"] if f["name"] == "target")["pattern"])
        bounds = next(f for f in limbo["params"] if f["name"] == "target_hundredths")
        for target in ["1.01", "2", "2.5", "2.50", "1000000", "1000000.00", "37.05"]:
            self.assertTrue(pattern.match(target), target)
            self.assertTrue(bounds["min"] <= hundredths(target) <= bounds["max"], target)
        self.assertEqual(hundredths("2.5"), 250)

    def test_the_client_reads_limbo_targets_with_the_cores_pattern(self) -> None:
        limbo = self.described["limbo"]
        self.assertEqual(LIMBO_TARGET.pattern, next(f for f in limbo["call"] if f["name"] == "target")["pattern"])
        for target in ["1", "1.00", "1.0", "0.5", "01.50", "2.555", "1000000.01", "1000001", "2.", ".5", "1e3", "+2", "2,5", ""]:
            self.assertIsNone(LIMBO_TARGET.fullmatch(target), target)
            with self.assertRaises(ValueError, msg=target):
                hundredths(target)


if __name__ == "__main__":
    unittest.main()
