// The games the glue reads are exactly the core's (`games()`, Game::NAMES), and a receipt or a
// round of any other game is refused with an error naming it: never read as another game's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { builds } from './builds.mjs';
import { readFileSync } from 'node:fs';
import { cases } from './vectors.mjs';

const limbo = JSON.parse(readFileSync(new URL('../vectors/fairness-v1-limbo.json', import.meta.url), 'utf8'));

const dice = cases.find((c) => c.receipt.game === 'dice').receipt;
const seeds = { server_seed: dice.server_seed, client_seed: dice.client_seed, wager: 100 };

/** An error of `code` whose message names the game `game`. */
const namesTheGame = (code, game) => (e) => {
  assert.ok(e instanceof Error, 'a real Error');
  assert.equal(e.code, code, e.message);
  assert.match(e.message, new RegExp(`unknown game "${game}"`));
  return true;
};

/** The games and one game's result fields as the package's TypeScript types name them. */
const types = readFileSync(new URL('../../wasm/js/arcade.d.ts', import.meta.url), 'utf8');
const union = (name) => [...types.match(new RegExp(`export type ${name} = ([^;]+);`))[1].matchAll(/"(\w+)"/g)].map((m) => m[1]);
const fieldsOf = (name) => [...types.match(new RegExp(`export interface ${name} \\{([^}]*)\\}`))[1].matchAll(/^\s*(\w+)[?]?:|\{\s*(\w+)[?]?:|;\s*(\w+)[?]?:/gm)]
  .map((m) => m[1] ?? m[2] ?? m[3]);
const RESULT_TYPES = { coinflip: 'CoinflipResult', dice: 'DiceResult', roulette: 'RouletteResult', limbo: 'LimboResult' };

for (const [name, wasm] of builds) {
  test(`${name}: the TypeScript types name every game games() lists, and each game's result fields`, () => {
    assert.deepEqual(union('Game'), wasm.games());
    const all = [...cases, ...limbo.cases];
    for (const game of wasm.games()) {
      const receipt = all.find((c) => c.receipt.game === game).receipt;
      assert.ok(RESULT_TYPES[game], `${game}: no result type named in this test`);
      assert.deepEqual(fieldsOf(RESULT_TYPES[game]).sort(), Object.keys(receipt.result).sort(), game);
    }
  });

  test(`${name}: games() is the core's list, and the glue reads every game of it`, () => {
    assert.deepEqual(wasm.games(), ['coinflip', 'dice', 'roulette', 'limbo']);
    // The golden vectors come from the native core: every game the core lists has some.
    const all = [...cases, ...limbo.cases];
    assert.deepEqual(wasm.games(), [...new Set(all.map((c) => c.receipt.game))]);
    for (const game of wasm.games()) {
      const receipt = all.find((c) => c.receipt.game === game).receipt;
      assert.equal(wasm.verify(structuredClone(receipt)).verified, true, game);
      const derived = wasm.derive(game, { ...seeds, params: receipt.params });
      assert.equal(derived.game, game);
      assert.deepEqual(Object.keys(derived.result).sort(), Object.keys(receipt.result).sort(), game);
    }
  });

  test(`${name}: a receipt of an unknown game is refused by name (verify, verifyMany, derive)`, () => {
    for (const game of ['plinko', 'crash', 'Dice', '__proto__', 'toString']) {
      assert.throws(() => wasm.verify({ ...structuredClone(dice), game }), namesTheGame('invalid_input', game));
      assert.throws(() => wasm.derive(game, { ...seeds, params: dice.params }), namesTheGame('invalid_input', game));
    }
    const line = JSON.stringify({ ...dice, game: 'plinko' });
    assert.throws(() => wasm.verifyMany(`${JSON.stringify(dice)}\n${line}`), (e) => {
      assert.deepEqual([e.code, e.index, e.line], ['invalid_input', 1, 2]);
      assert.match(e.message, /^line 2: game: unknown game "plinko"/);
      return true;
    });
  });
}
