// The audit's statistics against values worked out by hand and against brute force, with each
// call's odds and exact return from the wasm core's re-derivation (a report's trace).
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';

import {
  chiSquare, diceBinChances, fairnessStats, gammaQ, lnGamma, oddsOf, pocketChances, roundMoments,
  summarize, addRound, newTally, newStats, statsOf, statsProblems, CHANCE_EDGES,
} from '../../audit/stats.mjs';

const wasm = createRequire(import.meta.url)('arcade-wasm');
const SEEDS = { server_seed: '8f3c1e7a0b2d4c6e8f1a3b5c7d9e0f2a4b6c8d0e1f3a5b7c9d1e3f5a7b9c0d2e', client_seed: 'stats' };
/** The odds of a call of `game` on `wager`, as the core derives them. */
const odds = (game, params, wager = 1) => oddsOf(wasm.derive(game, { ...SEEDS, wager, params }).trace);
const winOdds = (game, params) => { const { w, n } = odds(game, params); return { w, n }; };
const winReturn = (game, params, wager) => { const { a, b } = odds(game, params, wager); return { a, b }; };

const close = (actual, expected, tolerance, what) =>
  assert.ok(Math.abs(actual - expected) <= tolerance, `${what}: ${actual} vs ${expected}`);

test('win chances and exact returns follow fairness v1', () => {
  assert.deepEqual(winOdds('coinflip', { call: 'heads' }), { w: 1, n: 2 });
  assert.deepEqual(winOdds('dice', { target: 50, direction: 'under' }), { w: 5000, n: 10001 });
  assert.deepEqual(winOdds('dice', { target: 50, direction: 'over' }), { w: 5000, n: 10001 });
  assert.deepEqual(winOdds('dice', { target: 1, direction: 'over' }), { w: 9900, n: 10001 });
  assert.deepEqual(winOdds('roulette', { bet: 'straight', number: 7 }), { w: 1, n: 37 });
  assert.deepEqual(winOdds('roulette', { bet: 'column2', number: null }), { w: 12, n: 37 });
  assert.deepEqual(winOdds('limbo', { target_hundredths: 200 }), { w: Math.floor((99 * 2 ** 32) / 200) + 1, n: 2 ** 32 });
  // In lowest terms: 10 × 99 × 10001 / 500000.
  const { a, b } = winReturn('dice', { target: 50, direction: 'under' }, 10);
  assert.equal(a / b, (10 * 99 * 10001) / 500000);
  assert.deepEqual(winReturn('roulette', { bet: 'red', number: null }, 5), { a: 10, b: 1 });
  assert.throws(() => winOdds('roulette', { bet: 'corner' }), /corner/);
});

test('every bet returns 99% (coinflip, dice) or 36/37 (roulette) of the wager in expectation', () => {
  close(roundMoments(odds('coinflip', { call: 'tails' }, 7)).mean, 7 * 0.99, 1e-12, 'coinflip');
  for (const target of [1, 2, 33, 50, 98, 99]) {
    for (const direction of ['under', 'over']) {
      close(roundMoments(odds('dice', { target, direction }, 13)).mean, 13 * 0.99, 1e-9, `dice ${target} ${direction}`);
    }
  }
  for (const bet of ['straight', 'red', 'even', 'high', 'dozen3', 'column1']) {
    close(roundMoments(odds('roulette', { bet, number: bet === 'straight' ? 3 : null }, 5)).mean, (5 * 36) / 37, 1e-12, bet);
  }
});

test('the variance counts the fair bonus chip: brute force over the payout law', () => {
  // A 1-chip coinflip pays 0 (p 1/2), 1 (p 1/2 · 0.02) or 2 (p 1/2 · 0.98).
  const law = [[0, 0.5], [1, 0.5 * 0.02], [2, 0.5 * 0.98]];
  const mean = law.reduce((s, [x, q]) => s + x * q, 0);
  const variance = law.reduce((s, [x, q]) => s + (x - mean) ** 2 * q, 0);
  const moments = roundMoments(odds('coinflip', { call: 'heads' }, 1));
  close(moments.mean, mean, 1e-12, 'mean');
  close(moments.variance, variance, 1e-12, 'variance');
  // Roulette pays whole multiples: Var = p(1-p)·R².
  const straight = roundMoments(odds('roulette', { bet: 'straight', number: 0 }, 2));
  close(straight.variance, (1 / 37) * (36 / 37) * 72 * 72, 1e-9, 'straight');
});

test('the tally sets realized return beside the expectation and its 95% interval', () => {
  const tally = newTally();
  const red = odds('roulette', { bet: 'red' }, 10);
  addRound(tally, { game: 'roulette', odds: red, wager: 10, payout: 20, won: true, house_agent: true });
  addRound(tally, { game: 'roulette', odds: red, wager: 10, payout: 0, won: false });
  const s = summarize(tally);
  assert.equal(s.rounds, 2);
  assert.equal(s.house_agent_rounds, 1);
  assert.equal(s.realized_return, 1);
  close(s.expected_return, 36 / 37, 1e-12, 'expected');
  const sd = Math.sqrt(2 * ((18 / 37) * 400 - (360 / 37) ** 2));
  close(s.interval[1] - s.expected_return, (1.96 * sd) / 20, 1e-12, 'half width');
  assert.equal(s.within_interval, true);
  assert.equal(summarize(newTally()).realized_return, null);
});

test('Q(a, x) matches the chi-square table', () => {
  close(lnGamma(5), Math.log(24), 1e-12, 'ln 4!');
  close(lnGamma(0.5), Math.log(Math.sqrt(Math.PI)), 1e-12, 'ln Γ(1/2)');
  // Critical values of the chi-square law at p = 0.05 and 0.01.
  for (const [df, x, p] of [[1, 3.841459, 0.05], [2, 5.991465, 0.05], [36, 50.998460, 0.05], [99, 123.225221, 0.05], [99, 134.642, 0.01], [36, 58.619, 0.01]]) {
    close(gammaQ(df / 2, x / 2), p, 2e-5, `df ${df}`);
  }
  assert.equal(gammaQ(3, 0), 1);
  assert.ok(gammaQ(49.5, 1000) < 1e-100);
});

test('chi-square of histograms: uniform counts score 0 (p = 1), a loaded wheel scores p ≈ 0', () => {
  const fair = chiSquare(Array(37).fill(100), pocketChances());
  assert.equal(fair.statistic, 0);
  assert.equal(fair.p_value, 1);
  const loaded = Array(37).fill(100);
  loaded[0] = 400;
  assert.ok(chiSquare(loaded, pocketChances()).p_value < 1e-10);
  const chances = diceBinChances();
  close(chances.reduce((s, c) => s + c, 0), 1, 1e-12, 'dice chances');
  assert.equal(chiSquare(Array(100).fill(0), chances).p_value, null);
});

test('fairnessStats bins dice rolls by the point (100.00 in the last bin) and pockets by number', () => {
  const stats = fairnessStats([
    { game: 'dice', odds: odds('dice', { target: 50, direction: 'under' }), wager: 1, payout: 2, won: true, result: { roll_hundredths: 10000 } },
    { game: 'dice', odds: odds('dice', { target: 50, direction: 'over' }), wager: 1, payout: 0, won: false, result: { roll_hundredths: 0 } },
    { game: 'roulette', odds: odds('roulette', { bet: 'straight', number: 36 }), wager: 1, payout: 36, won: true, result: { pocket: 36 } },
  ]);
  assert.equal(stats.dice_rolls.bins[99], 1);
  assert.equal(stats.dice_rolls.bins[0], 1);
  assert.equal(stats.roulette_pockets.bins[36], 1);
  assert.equal(stats.games.dice.rounds, 2);
  assert.equal(stats.games.coinflip.rounds, 0);
  assert.equal(stats.games.roulette.paid_out, 36);
});

test('the alarm band holds fair heavy-tailed limbo: 1,000 floors of 990 rounds at 2x and 10 at 1000x', () => {
  // Fair limbo rounds, drawn from a fixed-seed generator so the test is the same every run: a
  // win at target T has chance W / 2^32 and pays floor(R), plus a chip with chance frac(R).
  let state = 0x9e3779b9;
  const next = () => {
    state ^= state << 13; state >>>= 0; state ^= state >>> 17; state ^= state << 5; state >>>= 0;
    return state / 2 ** 32;
  };
  const limbo = { 200: odds('limbo', { target_hundredths: 200 }), 100000: odds('limbo', { target_hundredths: 100000 }) };
  const round = (target_hundredths) => {
    const { w, n, a, b } = limbo[target_hundredths];
    const payout = next() < w / n ? Math.floor(a / b) + (next() < (a % b) / b ? 1 : 0) : 0;
    return { game: 'limbo', odds: limbo[target_hundredths], wager: 1, payout, won: payout > 0 };
  };
  let outOfBand = 0;
  let normalWouldFlag = 0;
  for (let floor = 0; floor < 1000; floor++) {
    const tally = newTally();
    for (let i = 0; i < 1000; i++) addRound(tally, round(i % 100 === 0 ? 100000 : 200));
    const s = summarize(tally);
    if (s.in_band === false) outOfBand += 1;
    if (Math.abs(s.realized_return - s.expected_return) > (3.2905 * Math.sqrt(tally.by_chip.variance)) / tally.wagered) normalWouldFlag += 1;
  }
  assert.equal(outOfBand, 0);
  // A normal band (± 3.29 σ) meant p = 0.001, yet one 1000x win leaves it: about 1% of floors.
  assert.ok(normalWouldFlag > 3, `a ± 3.29 σ band flagged ${normalWouldFlag} of 1,000 fair floors`);
});

test('one round of a huge wager cannot hide a skewed game: the return per round still leaves its band', () => {
  // A house that drops one win in five of 3,000 one-chip coinflips, and then plays one honest
  // coinflip of its own at 2^40 chips: by the chip that one round's variance widens the band
  // past any return; by the round it weighs as one round of 3,001.
  let state = 0x2545f491;
  const next = () => {
    state ^= state << 13; state >>>= 0; state ^= state >>> 17; state ^= state << 5; state >>>= 0;
    return state / 2 ** 32;
  };
  const one = odds('coinflip', { call: 'heads' }, 1);
  const huge = 2 ** 40;
  const big = odds('coinflip', { call: 'heads' }, huge);
  const floor = (skewed) => {
    const tally = newTally();
    for (let i = 0; i < 3000; i++) {
      const won = next() < 0.5 && !(skewed && next() < 0.2);
      addRound(tally, { odds: one, wager: 1, payout: won ? (next() < 0.98 ? 2 : 1) : 0, won });
    }
    return tally;
  };
  const skewed = floor(true);
  assert.equal(summarize(skewed).in_band, false, 'the skew alone is caught');
  addRound(skewed, { odds: big, wager: huge, payout: 0, won: false });
  const s = summarize(skewed);
  assert.ok(s.realized_return >= s.alarm_interval[0] && s.realized_return <= s.alarm_interval[1], 'by the chip the huge round hides it');
  assert.equal(s.in_band, false, `by the round it does not: ${s.per_round_return} outside ${s.per_round_alarm_interval}`);
  // A fair floor with the same huge round stays in band both ways.
  const fair = floor(false);
  addRound(fair, { odds: big, wager: huge, payout: 0, won: false });
  assert.equal(summarize(fair).in_band, true);
});

/** A fixed-seed generator (xorshift32): the same floors every run. */
function generator(seed) {
  let state = seed;
  return () => {
    state ^= state << 13; state >>>= 0; state ^= state >>> 17; state ^= state << 5; state >>>= 0;
    return state / 2 ** 32;
  };
}

/**
 * One round of `odds` on `wager` drawn as fairness v1 settles it (a win with chance W/N pays
 * floor(R), plus a chip with chance frac(R)), a win dropped with chance `drop`.
 */
function played(next, game, odds, wager, drop = 0) {
  const { w, n, a, b } = odds;
  const won = next() < w / n && !(drop > 0 && next() < drop);
  const payout = won ? Math.floor(a / b) + (next() < (a % b) / b ? 1 : 0) : 0;
  return { game, odds, wager, payout, won };
}

const PLAYER_LIMITS = { max_wager_chips: 1000, max_payout_chips: 500 };
/** The problems statsProblems names in these games' summaries (no histogram filled). */
const problemsOf = (games) => statsProblems({ ...statsOf(newStats()), games });

/**
 * A house that skews `skewed` (a call, its wager and the share of wins it drops) and pads the
 * game with rounds of its own: `padding` one-chip long shots of another call and `big` honest
 * rounds of the skewed call at the largest wager the limits allow.
 */
function paddedFloor(next, game, { skewed, long, rounds, padding, big, drop }) {
  const tally = newTally();
  for (let i = 0; i < rounds; i++) addRound(tally, played(next, game, skewed.odds, skewed.wager, drop), PLAYER_LIMITS);
  for (let i = 0; i < padding; i++) addRound(tally, played(next, game, long, 1), PLAYER_LIMITS);
  for (let i = 0; i < big.rounds; i++) addRound(tally, played(next, game, big.odds, big.wager), PLAYER_LIMITS);
  return tally;
}

/**
 * Twenty floors of `game`, each skewed by `drop` and then played fairly with the same padding:
 * how many skewed floors kept both returns in band (`hidden`), how many were out of band
 * (`caught`), and how many fair ones raised an alarm (`fairAlarms`).
 */
function twentyFloors(next, game, setup, drop) {
  const inside = (x, [lo, hi]) => x >= lo && x <= hi;
  const seen = { hidden: 0, caught: 0, fairAlarms: 0 };
  for (let floor = 0; floor < 20; floor++) {
    const s = summarize(paddedFloor(next, game, setup(drop)));
    if (inside(s.realized_return, s.alarm_interval) && inside(s.per_round_return, s.per_round_alarm_interval)) seen.hidden += 1;
    if (s.in_band === false) seen.caught += 1;
    if (summarize(paddedFloor(next, game, setup(0))).in_band !== true) seen.fairAlarms += 1;
  }
  return seen;
}

test('one-chip long shots cannot hide a skewed game: its wins of their own chance leave their band (dice at 80%)', () => {
  // A house that drops 19% of the wins of 3,000 dice rounds under 50 at 10 chips (a return of
  // about 80%), then plays 3,000 one-chip dice rounds under 1 (a 1% chance at 99x) and 3 honest
  // rounds under 50 at 510 chips. Each long shot's payout varies as much as a hundred even-money
  // rounds', which widens both returns' bands past 80%; the rounds under 50 still count their wins.
  const next = generator(0x6d2b79f5);
  const under50 = (wager) => odds('dice', { target: 50, direction: 'under' }, wager);
  const setup = (drop) => ({
    skewed: { odds: under50(10), wager: 10 }, long: odds('dice', { target: 1, direction: 'under' }, 1),
    rounds: 3000, padding: 3000, big: { rounds: 3, odds: under50(510), wager: 510 }, drop,
  });
  const { hidden, caught, fairAlarms } = twentyFloors(next, 'dice', setup, 0.19);
  assert.ok(hidden >= 15, `the padding hides the skew from both returns in ${hidden} of 20 floors`);
  assert.equal(caught, 20, 'the wins of chance 1/8 to 1/2 catch every skewed floor');
  assert.equal(fairAlarms, 0, 'a fair floor with the same padding stays in band');
  const s = summarize(paddedFloor(next, 'dice', setup(0.19)));
  const bucket = s.wins_by_chance.find((w) => w.chance_at_least === CHANCE_EDGES[1]);
  assert.equal(bucket.rounds, 3003);
  assert.equal(bucket.in_band, false);
  const problems = problemsOf({ dice: s });
  assert.ok(problems.some((p) => /^dice: \d+ wins in 3003 rounds of win chance 1\/8 to 1\/2, outside its band/.test(p)), problems.join('\n'));
});

test('one-chip long shots cannot hide a skewed game: limbo at 2x losing 15% of its wins, padded at 501x', () => {
  // 3,000 limbo rounds at 2x and 5 chips lose 15% of their wins (a return of about 84%); 3,000
  // one-chip rounds at 501x (each a 0.2% chance of 501 chips) and 3 honest ones at 2x and 500
  // chips widen both returns' bands past it.
  const next = generator(0x1b873593);
  const at = (target_hundredths, wager) => odds('limbo', { target_hundredths }, wager);
  const setup = (drop) => ({
    skewed: { odds: at(200, 5), wager: 5 }, long: at(50100, 1),
    rounds: 3000, padding: 3000, big: { rounds: 3, odds: at(200, 500), wager: 500 }, drop,
  });
  const { hidden, caught, fairAlarms } = twentyFloors(next, 'limbo', setup, 0.15);
  assert.ok(hidden >= 15, `the padding hides the skew from both returns in ${hidden} of 20 floors`);
  assert.equal(caught, 20, 'the wins of chance 1/8 to 1/2 catch every skewed floor');
  assert.equal(fairAlarms, 0);
});

test('rounds beyond the published limits are named and kept out of every band', () => {
  // A coinflip of 10^12 chips and a limbo of one chip at 10,000x: calls the arcade refuses.
  const next = generator(0x85ebca6b);
  const coin = odds('coinflip', { call: 'heads' }, 1);
  const stats = { games: { coinflip: newTally(), limbo: newTally() } };
  for (let i = 0; i < 500; i++) addRound(stats.games.coinflip, played(next, 'coinflip', coin, 1), PLAYER_LIMITS);
  addRound(stats.games.coinflip, { odds: odds('coinflip', { call: 'heads' }, 1e12), wager: 1e12, payout: 0, won: false }, PLAYER_LIMITS);
  addRound(stats.games.limbo, { odds: odds('limbo', { target_hundredths: 1000000 }, 1), wager: 1, payout: 10000, won: true }, PLAYER_LIMITS);
  // At the limits exactly: a wager of 1000 chips; a one-chip win of profit 500 (limbo at 501x).
  addRound(stats.games.coinflip, { odds: odds('coinflip', { call: 'heads' }, 1000), wager: 1000, payout: 0, won: false }, { ...PLAYER_LIMITS, max_payout_chips: 1000 });
  addRound(stats.games.limbo, { odds: odds('limbo', { target_hundredths: 50100 }, 1), wager: 1, payout: 0, won: false }, PLAYER_LIMITS);
  const coinflip = summarize(stats.games.coinflip);
  assert.equal(coinflip.rounds, 502);
  assert.equal(coinflip.over_limits, 1);
  assert.equal(coinflip.wagered, 500 + 1000, 'the 10^12-chip round is in no sum');
  assert.equal(summarize(stats.games.limbo).over_limits, 1);
  const problems = problemsOf({ coinflip, limbo: summarize(stats.games.limbo) });
  assert.ok(problems.some((p) => p.startsWith('coinflip: 1 of 502 rounds beyond the published limits')), problems.join('\n'));
  assert.ok(problems.some((p) => p.startsWith('limbo: 1 of 2 rounds beyond the published limits')), problems.join('\n'));
  assert.throws(() => addRound(newTally(), { odds: coin, wager: 1, payout: 2 }), /re-derived `won`/);
});
