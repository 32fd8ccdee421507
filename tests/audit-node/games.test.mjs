// The checking module and the statistics know exactly the core's games (`games()` of the wasm
// core, Game::NAMES) and refuse any other by name: a round of an unknown game fails the check
// `game`, is not re-derived as another game's, and is never counted in a game's statistics.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { test } from 'node:test';

import { GAMES, addToStats, fairnessStats, newStats } from '../../audit/stats.mjs';
import { FAIL, FROM_HOUSE, FROM_READER, judgeRound } from '../../audit/verdicts.mjs';

const require = createRequire(import.meta.url);
const wasm = require('arcade-wasm');
const proofs = require('arcade-wasm/arcade_proofs.js');
const { cases } = JSON.parse(readFileSync(new URL('../vectors/fairness-v1.json', import.meta.url), 'utf8'));

test('the statistics count exactly the core\'s games', () => {
  assert.deepEqual(GAMES, wasm.games());
  assert.deepEqual(Object.keys(fairnessStats([]).games), wasm.games());
});

test('a receipt of an unknown game fails `game`, named, and is not re-derived as another game', () => {
  const roulette = cases.find((c) => c.receipt.game === 'roulette').receipt;
  for (const game of ['plinko', 'crash', '__proto__']) {
    for (const from of [FROM_READER, FROM_HOUSE]) {
      const verdict = judgeRound({ wasm, proofs, trust: null, batches: null }, { ...roulette, bet_id: 5, game }, { from });
      assert.equal(verdict.verdict, FAIL);
      assert.equal(verdict.check, 'game');
      assert.match(verdict.failures[0].why, new RegExp(`unknown game "${game}"; this verifier knows coinflip, dice, roulette`));
      assert.ok(!verdict.failures.some((f) => f.check === 'rederive'), JSON.stringify(verdict.failures));
      assert.equal(verdict.round, null);
      assert.equal(verdict.report, null);
    }
  }
});

test('the statistics refuse a round of an unknown game by name, and count nothing of it', () => {
  const stats = newStats();
  const odds = { w: 1, n: 2, a: 2, b: 1 };
  for (const game of ['plinko', 'crash', '__proto__']) {
    const round = { game, odds, wager: 10, payout: 0, house_agent: false };
    assert.throws(() => addToStats(stats, round), (e) => !(e instanceof TypeError) && new RegExp(`unknown game "${game}"`).test(e.message));
  }
  for (const game of GAMES) assert.equal(stats.games[game].rounds, 0, game);
});
