// Every round of every game verified: 200 rounds across coinflip, dice, roulette and limbo,
// bought with x402, each verified by the shared checks before the call returned; the balance
// the rounds report adds up, and the client-side cost of verification is measured beside the
// round's total latency.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { privateKeyToAccount } from 'viem/accounts';

import { Arcade, ArcadeError } from '../dist/index.js';
import { DEMO_PAYER_KEY, freePlayer, startStack } from './stack.mjs';

const ROUNDS = 200;
const BETS = ['straight', 'red', 'black', 'odd', 'even', 'low', 'high', 'dozen1', 'dozen2', 'dozen3', 'column1', 'column2', 'column3'];
const LIMBO = ['1.01', '1.5', '2', '3.33', '10', '100.5'];

let stack;
before(async () => { stack = await startStack({ rateLimits: false }); });
after(() => stack?.stop());

/** Round `i`'s game and call: every game in turn, many calls of each. */
function callOf(arcade, i) {
  switch (i % 4) {
    case 0: return arcade.flip({ wager: 1, call: i % 8 ? 'heads' : 'tails' });
    case 1: return arcade.dice({ wager: 1, target: 2 + ((i * 7) % 97), direction: i % 2 ? 'over' : 'under' });
    case 2: {
      const bet = BETS[(i >> 2) % BETS.length];
      return arcade.roulette({ wager: 1, bet, ...(bet === 'straight' ? { number: i % 37 } : {}) });
    }
    default: return arcade.limbo({ wager: 1, target: LIMBO[(i >> 2) % LIMBO.length] });
  }
}

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const summary = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  return `mean ${mean.toFixed(1)} ms, median ${quantile(sorted, 0.5).toFixed(1)} ms, p95 ${quantile(sorted, 0.95).toFixed(1)} ms`;
};

test(`${ROUNDS} rounds of the four games, every one verified before it returned`, async () => {
  const arcade = await Arcade.connect(stack.baseUrl, { account: privateKeyToAccount(DEMO_PAYER_KEY), maxSpend: '0.10' });
  const bought = await arcade.buyChips('small');
  assert.equal(bought.chips_credited, 1000);
  assert.equal(arcade.spendable, 0n);
  let balance = bought.balance;
  const rounds = [];
  for (let i = 0; i < ROUNDS; i++) {
    const r = await callOf(arcade, i);
    assert.equal(r.verified, true);
    assert.equal(r.verdict.verdict, 'pass', r.verdict.reason);
    assert.equal(r.replayed, false);
    // After the first, each round is the one the play before it opened: one request a round.
    assert.equal(r.chained, i > 0, `round ${i}: chained`);
    assert.equal('next_round' in r.receipt, false, `round ${i}: an open round's id is kept apart from the receipt`);
    balance += r.payout - r.receipt.wager;
    assert.equal(r.balance, balance, `bet ${r.bet_id}: the balance is the last one, less the wager, plus the payout`);
    rounds.push(r);
  }
  assert.deepEqual([...new Set(rounds.map((r) => r.game))].sort(), ['coinflip', 'dice', 'limbo', 'roulette']);
  assert.equal(new Set(rounds.map((r) => r.receipt.client_seed)).size, ROUNDS, 'a fresh client seed every round');
  assert.equal((await arcade.balance()).chips, balance);

  const verify = rounds.map((r) => r.timings.verify_ms);
  const total = rounds.map((r) => r.timings.total_ms);
  const share = verify.reduce((a, b) => a + b, 0) / total.reduce((a, b) => a + b, 0);
  console.log(`verification per round (client side): ${summary(verify)}`);
  console.log(`whole round (commit, sign, play, verify): ${summary(total)}; verification is ${(100 * share).toFixed(1)}% of it`);
});

test('the audit pages the feed: every round of the player verified, the return to player beside the expectation', async () => {
  const account = privateKeyToAccount(DEMO_PAYER_KEY);
  const arcade = await Arcade.connect(stack.baseUrl, { account });
  const report = await arcade.audit();
  assert.equal(report.address, account.address);
  assert.equal(report.rounds, ROUNDS);
  assert.equal(report.verified, ROUNDS);
  assert.deepEqual(report.checks, []);
  const rounds = Object.values(report.rtp).reduce((n, g) => n + g.rounds, 0);
  assert.equal(rounds, ROUNDS);
  for (const [game, g] of Object.entries(report.rtp)) {
    assert.ok(g.expected_return > 0.95 && g.expected_return < 1, `${game}: expected ${g.expected_return}`);
    console.log(`${game}: ${g.rounds} rounds, wagered ${g.wagered}, paid ${g.paid_out}, return ${g.realized_return.toFixed(3)} (expected ${g.expected_return.toFixed(4)})`);
  }
  assert.equal(report.floor.verdict, 'pass');
  const one = await arcade.verify(report.floor.rounds);
  assert.equal(one.verified, true);
});

test('a refusal is an ArcadeError carrying the server\'s code and status', async () => {
  const arcade = await Arcade.connect(stack.baseUrl, { account: await freePlayer(stack.baseUrl) });
  await assert.rejects(arcade.flip({ wager: 101, call: 'heads' }), (error) => {
    assert.ok(error instanceof ArcadeError);
    assert.equal(error.code, 'insufficient_chips');
    assert.equal(error.status, 400);
    assert.equal(error.body.balance, 100);
    return true;
  });
  await assert.rejects(arcade.buyChips('small'), { name: 'SpendingCapError' });
});

test('a successor the arcade expired (the statement rotated away) is refused by name, nothing taken; the next call commits afresh', async () => {
  const account = await freePlayer(stack.baseUrl);
  const arcade = await Arcade.connect(stack.baseUrl, { account });
  const first = await arcade.flip({ wager: 1, call: 'heads' });
  // Elsewhere, the owner rotates its statement: every open round of the address expires.
  const { statement } = await (await fetch(new URL(`/api/arcade/auth-statement/${account.address}`, stack.baseUrl))).json();
  const rotated = await fetch(new URL('/api/arcade/auth/rotate', stack.baseUrl), {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ address: account.address, signature: await account.signMessage({ message: statement }) }),
  });
  assert.equal(rotated.status, 200, await rotated.text());
  // Once its Play is signed, a call plays that round or nothing: it never re-rolls on another.
  await assert.rejects(arcade.dice({ wager: 1, target: 50 }), (error) => {
    assert.ok(error instanceof ArcadeError);
    assert.equal(error.code, 'round_expired');
    return true;
  });
  assert.equal((await arcade.balance()).chips, first.balance, 'the expired successor cost nothing');
  const second = await arcade.dice({ wager: 1, target: 50 });
  assert.equal(second.verdict.verdict, 'pass', second.verdict.reason);
  assert.equal(second.chained, false, 'played on a fresh commit');
  assert.equal(second.balance, first.balance - 1 + second.payout);
  const third = await arcade.flip({ wager: 1, call: 'tails' });
  assert.equal(third.chained, true, 'and the chain goes on from there');
});
