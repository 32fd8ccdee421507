// Every game as the fairness core describes it (arcade_core::GAMES), in its order.
// Written by `cargo run -p arcade-core --features serde --example games`; do not edit.
const DESCRIPTIONS = [
  {
    "name": "coinflip",
    "summary": "Coinflip: call heads or tails. Pays 1.98x the wager.",
    "outcomes": 2,
    "mapping": "u0 >> 31 = {drawn} (u0 = {u0}: heads iff u0 ≥ 2^31 = 2147483648) → {outcome}",
    "call": [
      {
        "name": "call",
        "kind": "choice",
        "words": [
          "heads",
          "tails"
        ],
        "required": true,
        "required_with": null,
        "about": "heads or tails. A win returns 1.98x the wager."
      }
    ],
    "params": [
      {
        "name": "call",
        "kind": "choice",
        "words": [
          "heads",
          "tails"
        ],
        "required": true,
        "required_with": null,
        "about": "heads or tails. A win returns 1.98x the wager."
      }
    ],
    "result": [
      {
        "name": "outcome",
        "kind": "choice",
        "words": [
          "heads",
          "tails"
        ],
        "required": true,
        "required_with": null,
        "about": "The side drawn."
      }
    ],
    "signed": {
      "call": {
        "param": "call"
      },
      "target": "absent",
      "number": "absent",
      "outcome": "outcome",
      "outcome_words": [
        "tails",
        "heads"
      ]
    }
  },
  {
    "name": "dice",
    "summary": "Dice: a roll from 0.00 to 100.00, under or over a target (1 to 99); pays 99% of the fair odds of the call, and the result carries its exact return.",
    "outcomes": 10001,
    "mapping": "(u0 × 10001) >> 32 = {drawn} → roll {roll}",
    "call": [
      {
        "name": "target",
        "kind": "integer",
        "min": 1,
        "max": 99,
        "required": true,
        "required_with": null,
        "about": "1 to 99. The roll is 0.00 to 100.00; under wins below the target, over above it."
      },
      {
        "name": "direction",
        "kind": "choice",
        "words": [
          "under",
          "over"
        ],
        "required": false,
        "required_with": null,
        "about": "under (the default) or over."
      }
    ],
    "params": [
      {
        "name": "target",
        "kind": "integer",
        "min": 1,
        "max": 99,
        "required": true,
        "required_with": null,
        "about": "1 to 99. The roll is 0.00 to 100.00; under wins below the target, over above it."
      },
      {
        "name": "direction",
        "kind": "choice",
        "words": [
          "under",
          "over"
        ],
        "required": false,
        "required_with": null,
        "about": "under (the default) or over."
      }
    ],
    "result": [
      {
        "name": "roll",
        "kind": "number",
        "required": false,
        "required_with": null,
        "about": "The roll, 0.00 to 100.00."
      },
      {
        "name": "roll_hundredths",
        "kind": "integer",
        "min": 0,
        "max": 10000,
        "required": true,
        "required_with": null,
        "about": "The roll in hundredths, 0 to 10000."
      },
      {
        "name": "win_chance",
        "kind": "shown",
        "required": false,
        "required_with": null,
        "about": "The call's chance of a win, with four decimals and a percent sign."
      },
      {
        "name": "multiplier",
        "kind": "shown",
        "required": false,
        "required_with": null,
        "about": "The return of a win per chip wagered, with four decimals."
      }
    ],
    "signed": {
      "call": {
        "param": "direction"
      },
      "target": {
        "param": "target"
      },
      "number": "absent",
      "outcome": "roll_hundredths",
      "outcome_words": []
    }
  },
  {
    "name": "roulette",
    "summary": "European roulette: one of 13 bets on 37 pockets; pays 36x straight, 3x dozens and columns, 2x even-money bets.",
    "outcomes": 37,
    "mapping": "(u0 × 37) >> 32 = {drawn} → pocket {pocket}",
    "call": [
      {
        "name": "bet",
        "kind": "choice",
        "words": [
          "straight",
          "red",
          "black",
          "odd",
          "even",
          "low",
          "high",
          "dozen1",
          "dozen2",
          "dozen3",
          "column1",
          "column2",
          "column3"
        ],
        "required": true,
        "required_with": null,
        "about": "One of the 13 bets: straight (needs number, pays 36x), red, black, odd, even, low, high (2x), dozen1, dozen2, dozen3, column1, column2, column3 (3x)."
      },
      {
        "name": "number",
        "kind": "integer",
        "min": 0,
        "max": 36,
        "required": false,
        "required_with": [
          "bet",
          "straight"
        ],
        "about": "0 to 36, for a straight bet only."
      }
    ],
    "params": [
      {
        "name": "bet",
        "kind": "choice",
        "words": [
          "straight",
          "red",
          "black",
          "odd",
          "even",
          "low",
          "high",
          "dozen1",
          "dozen2",
          "dozen3",
          "column1",
          "column2",
          "column3"
        ],
        "required": true,
        "required_with": null,
        "about": "One of the 13 bets: straight (needs number, pays 36x), red, black, odd, even, low, high (2x), dozen1, dozen2, dozen3, column1, column2, column3 (3x)."
      },
      {
        "name": "number",
        "kind": "integer",
        "min": 0,
        "max": 36,
        "required": false,
        "required_with": [
          "bet",
          "straight"
        ],
        "about": "0 to 36, for a straight bet only."
      }
    ],
    "result": [
      {
        "name": "pocket",
        "kind": "integer",
        "min": 0,
        "max": 36,
        "required": true,
        "required_with": null,
        "about": "The pocket drawn, 0 to 36."
      },
      {
        "name": "color",
        "kind": "choice",
        "words": [
          "green",
          "red",
          "black"
        ],
        "required": false,
        "required_with": null,
        "about": "The pocket's colour."
      }
    ],
    "signed": {
      "call": {
        "param": "bet"
      },
      "target": "absent",
      "number": {
        "param": "number"
      },
      "outcome": "pocket",
      "outcome_words": []
    }
  },
  {
    "name": "limbo",
    "summary": "Limbo: a multiplier from 1.00 to 1000000.00 is drawn; win if it reaches your target (1.01 to 1000000.00), paid 99% of the fair odds of the target.",
    "outcomes": 4294967296,
    "mapping": "floor(99 × 2^32 / u0) = {drawn} (u0 = 0 draws the cap), kept within 100 ..= 100000000 → result {result_hundredths} hundredths → {crash_point}x",
    "call": [
      {
        "name": "target",
        "kind": "text",
        "pattern": "^(?:1\\.(?:0[1-9]|[1-9][0-9]?)|(?:[2-9]|[1-9][0-9]{1,5})(?:\\.[0-9]{1,2})?|1000000(?:\\.00?)?)$",
        "required": true,
        "required_with": null,
        "about": "The multiplier to reach: 1.01 to 1000000.00 as text with at most two decimals (\"2.50\")."
      }
    ],
    "params": [
      {
        "name": "target_hundredths",
        "kind": "integer",
        "min": 101,
        "max": 100000000,
        "required": true,
        "required_with": null,
        "about": "The target in hundredths, 101 to 100000000."
      }
    ],
    "result": [
      {
        "name": "result_hundredths",
        "kind": "integer",
        "min": 100,
        "max": 100000000,
        "required": true,
        "required_with": null,
        "about": "The multiplier drawn, in hundredths."
      },
      {
        "name": "crash_point",
        "kind": "shown",
        "required": false,
        "required_with": null,
        "about": "The multiplier drawn, as text with two decimals."
      }
    ],
    "signed": {
      "call": {
        "word": "limbo"
      },
      "target": {
        "param": "target_hundredths"
      },
      "number": "absent",
      "outcome": "result_hundredths",
      "outcome_words": []
    }
  }
];

const deepFreeze = (value) => {
  if (value && typeof value === 'object') {
    Object.values(value).forEach(deepFreeze);
    Object.freeze(value);
  }
  return value;
};
deepFreeze(DESCRIPTIONS);

/** Every game as the core describes it: `[{name, summary, outcomes, call, params, result, signed}]`. */
export function gameDescriptions() {
  return DESCRIPTIONS;
}
