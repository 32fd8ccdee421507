// The client's games (src/games.ts, built to dist/) are the fairness core's: the games it plays,
// each call's fields, roulette's bets and limbo's target rule, held to the core's descriptions
// as the installed arcade-wasm ships them (gameDescriptions()).
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';

import { GAME_OF, ROULETTE_BETS, hundredths, shapeOf } from '../dist/games.js';

const descriptions = createRequire(import.meta.url)('arcade-wasm').gameDescriptions();
const described = (game) => descriptions.find((d) => d.name === game);
const field = (game, list, name) => described(game)[list].find((f) => f.name === name);

test('the client plays every game the core describes, and no other', () => {
  assert.deepEqual(Object.values(GAME_OF), descriptions.map((d) => d.name));
});

test('each call sends the described call fields and names the described params', () => {
  const calls = {
    flip: { call: 'heads', wager: 1 },
    dice: { target: 40, direction: 'over', wager: 1 },
    roulette: { bet: 'straight', number: 7, wager: 1 },
    limbo: { target: '2.5', wager: 1 },
  };
  for (const [endpoint, call] of Object.entries(calls)) {
    const game = described(GAME_OF[endpoint]);
    const { body, playParams } = shapeOf(endpoint, call);
    assert.deepEqual(Object.keys(body).sort(), game.call.map((f) => f.name).sort(), endpoint);
    assert.deepEqual(Object.keys(playParams).sort(), game.params.map((f) => f.name).sort(), endpoint);
  }
});

test("roulette's bets are the core's words", () => {
  assert.deepEqual([...ROULETTE_BETS], field('roulette', 'params', 'bet').words);
});

test("a limbo target the client converts is one the core's pattern reads, in the core's range", () => {
  const pattern = new RegExp(field('limbo', 'call', 'target').pattern);
  const { min, max } = field('limbo', 'params', 'target_hundredths');
  for (const target of ['1.01', '2', '2.5', '2.50', '1000000', '1000000.00', '37.05']) {
    assert.ok(pattern.test(target), target);
    const h = hundredths(target);
    assert.ok(h >= min && h <= max, `${target}: ${h}`);
  }
  assert.equal(hundredths('2.5'), 250);
  assert.equal(hundredths(37.05), 3705);
});

test("a limbo target the core's pattern refuses, the client refuses before it signs", () => {
  const pattern = new RegExp(field('limbo', 'call', 'target').pattern);
  for (const target of ['1', '1.00', '1.0', '0.5', '01.50', '2.555', '1000000.01', '1000001', '2.', '.5', '1e3', '+2', '2,5', '']) {
    assert.equal(pattern.test(target), false, `the core reads ${target}`);
    assert.throws(() => hundredths(target), RangeError, target);
  }
});
