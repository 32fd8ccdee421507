// What each game puts in the module's shared slots and reads back from them: a receipt's params
// and claimed result read in the module's order, and each game's result and params rebuilt from
// a derivation's texts and numbers (see wasm/src/lib.rs for the flat form). arcade.js reads
// every game through this file; `wasm/js/package.mjs` copies it into each built package.
import { invalid, objectField, optionalInteger, optionalString, wrong } from './fields.js';

/** A receipt's params for the module, read in order (the first wrong one is the error). */
export function claimedParams(r, keys) {
  const params = objectField(r.params, r, 'params');
  return {
    call: optionalString(params.call, params, 'call'),
    target: optionalInteger(params[keys.target], params, keys.target, false),
    direction: optionalString(params.direction, params, 'direction'),
    bet: optionalString(params.bet, params, 'bet'),
    number: optionalInteger(params.number, params, 'number', false),
  };
}

/** A receipt's claimed result for the module, read in order (the first wrong one is the error). */
export function claimedResult(r, keys) {
  const result = objectField(r.result, r, 'result');
  const outcome = optionalString(result.outcome, result, 'outcome');
  let roll = result.roll;
  // A claimed roll goes with its shortest decimal digits (JavaScript's own), from which the
  // core shows it exactly as Rust shows the number.
  let rollText;
  if (typeof roll === 'number') rollText = String(roll);
  else if (roll === undefined || roll === null) roll = 0;
  else throw wrong(result, 'roll', roll, 'a number');
  return {
    outcome,
    roll,
    rollText,
    rollHundredths: optionalInteger(result.roll_hundredths, result, 'roll_hundredths', true),
    winChance: optionalString(result.win_chance, result, 'win_chance'),
    multiplier: optionalString(result[keys.multiplier], result, keys.multiplier),
    pocket: optionalInteger(result[keys.pocket], result, keys.pocket, true),
    color: optionalString(result.color, result, 'color'),
  };
}

/** The receipt keys of the module's shared slots (a game with other names overrides them). */
const KEYS = { target: 'target', pocket: 'pocket', multiplier: 'multiplier' };

/** The receipt keys of `shape`'s slots: the shared names, with the game's own where it has them. */
export function keysOf(shape) {
  return { ...KEYS, ...shape.keys };
}

/**
 * What the glue reads of each game: its `keys`, how many texts its result takes, its result from
 * the texts from slot `i` of `n` in `out`, and its params from a derivation (`named`, the call's
 * text; its number in slot 6). Only these games are read; a test holds them to `games()`.
 */
const GAMES = {
  coinflip: {
    texts: 1,
    result: (out, n, i) => ({ outcome: out.slice(n[i - 1], n[i]) }),
    params: (named) => ({ call: named }),
  },
  dice: {
    texts: 2,
    // The same double as the core's f64::from(hundredths) / 100.0.
    result: (out, n, i) => ({
      roll: n[5] / 100,
      roll_hundredths: n[5],
      win_chance: out.slice(n[i - 1], n[i]),
      multiplier: out.slice(n[i], n[i + 1]),
    }),
    params: (named, n) => ({ target: n[6], direction: named }),
  },
  roulette: {
    texts: 1,
    result: (out, n, i) => ({ pocket: n[5], color: out.slice(n[i - 1], n[i]) }),
    params: (named, n) => ({ bet: named, number: n[6] < 0 ? null : n[6] }),
  },
  limbo: {
    keys: { target: 'target_hundredths', pocket: 'result_hundredths', multiplier: 'crash_point' },
    texts: 1,
    result: (out, n, i) => ({ result_hundredths: n[5], crash_point: out.slice(n[i - 1], n[i]) }),
    params: (named, n) => ({ target_hundredths: n[6] }),
  },
};

/** The glue's reading of `game`; any other game is refused by name, never read as another's. */
export function gameOf(game) {
  if (Object.hasOwn(GAMES, game)) return GAMES[game];
  throw invalid(`game: unknown game ${JSON.stringify(game)}; this verifier knows ${Object.keys(GAMES).join(', ')}`);
}
