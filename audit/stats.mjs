// The statistics of the fairness audit, pure and shared: the audit command imports this file
// and the verifier page serves it as /web/stats.js. Win chances W/N and exact win returns R
// are fairness v1's (see docs: fairness.md); nothing here trusts a number the server computed.

export const GAMES = ['coinflip', 'dice', 'roulette'];
const DICE_OUTCOMES = 10001;
const POCKETS = 37;
/** Roulette bets: winning pockets W (of 37) and the multiplier of the wager paid on a win. */
const ROULETTE = {
  straight: [1, 36],
  red: [18, 2], black: [18, 2], odd: [18, 2], even: [18, 2], low: [18, 2], high: [18, 2],
  dozen1: [12, 3], dozen2: [12, 3], dozen3: [12, 3],
  column1: [12, 3], column2: [12, 3], column3: [12, 3],
};

/** Winning outcomes `w` of `n` equally likely ones for a game's call. */
export function winOdds(game, params) {
  if (game === 'coinflip') return { w: 1, n: 2 };
  if (game === 'dice') {
    const at = 100 * params.target;
    return { w: params.direction === 'over' ? 10000 - at : at, n: DICE_OUTCOMES };
  }
  if (game === 'roulette' && ROULETTE[params.bet]) return { w: ROULETTE[params.bet][0], n: POCKETS };
  throw new Error(`unknown call: ${game} ${JSON.stringify(params)}`);
}

/** The exact return of a win, wager included, as the fraction a / b chips. */
export function winReturn(game, params, wager) {
  if (game === 'coinflip') return { a: wager * 198, b: 100 };
  if (game === 'dice') return { a: wager * 99 * DICE_OUTCOMES, b: 100 * winOdds(game, params).w };
  return { a: wager * ROULETTE[params.bet][1], b: 1 };
}

/**
 * Mean and variance of one round's payout. A win pays floor(R) plus a fair bonus chip with
 * probability frac(R) (drawn from u1, independent of the outcome), so
 * E[X] = p·R and E[X²] = p·(f² + frac·(2f + 1)).
 */
export function roundMoments(game, params, wager) {
  const { w, n } = winOdds(game, params);
  const { a, b } = winReturn(game, params, wager);
  const p = w / n;
  const f = Math.floor(a / b);
  const frac = (a % b) / b;
  const mean = p * (a / b);
  return { mean, variance: p * (f * f + frac * (2 * f + 1)) - mean * mean };
}

/** A running tally of rounds: wagered, paid out, and the exact expectation with its variance. */
export function newTally() {
  return { rounds: 0, house_agent_rounds: 0, wagered: 0, paid_out: 0, expected: 0, variance: 0 };
}

/** Adds one settled round (its payout as re-derived) to a tally. */
export function addRound(tally, { game, params, wager, payout, house_agent }) {
  const { mean, variance } = roundMoments(game, params, wager);
  tally.rounds += 1;
  if (house_agent) tally.house_agent_rounds += 1;
  tally.wagered += wager;
  tally.paid_out += payout;
  tally.expected += mean;
  tally.variance += variance;
  return tally;
}

/**
 * Realized return to player (paid out / wagered) beside the exact expected return for exactly
 * these bets, and the 95% interval the realized return falls in when the game is fair
 * (normal approximation: expected ± 1.96 σ / wagered).
 */
export function summarize(tally) {
  const { rounds, house_agent_rounds, wagered, paid_out } = tally;
  if (wagered === 0) return { rounds, house_agent_rounds, wagered, paid_out, realized_return: null, expected_return: null, interval: null, within_interval: null };
  const expected = tally.expected / wagered;
  const half = (1.96 * Math.sqrt(tally.variance)) / wagered;
  const realized = paid_out / wagered;
  const interval = [expected - half, expected + half];
  return {
    rounds, house_agent_rounds, wagered, paid_out,
    realized_return: realized, expected_return: expected, interval,
    within_interval: realized >= interval[0] && realized <= interval[1],
  };
}

// ---- histograms and the chi-square test ----

/** 100 dice bins of one point each (0.00–0.99, …); the last also holds 100.00. */
export const DICE_BINS = 100;
export const diceBin = (hundredths) => Math.min(DICE_BINS - 1, Math.floor(hundredths / 100));
/** The chance of each dice bin: 100 of 10001 outcomes, the last 101. */
export const diceBinChances = () =>
  Array.from({ length: DICE_BINS }, (_, i) => (i === DICE_BINS - 1 ? 101 : 100) / DICE_OUTCOMES);
export const ROULETTE_BINS = POCKETS;
export const pocketChances = () => Array(POCKETS).fill(1 / POCKETS);

/** Pearson's chi-square of observed counts against chances; p from the chi-square law, k-1 df. */
export function chiSquare(observed, chances) {
  const total = observed.reduce((s, x) => s + x, 0);
  if (total === 0) return { statistic: null, df: observed.length - 1, p_value: null, total };
  let statistic = 0;
  for (const [i, count] of observed.entries()) {
    const expected = total * chances[i];
    statistic += ((count - expected) ** 2) / expected;
  }
  const df = observed.length - 1;
  return { statistic, df, p_value: gammaQ(df / 2, statistic / 2), total };
}

/** ln Γ(x), Lanczos (g = 7, 9 terms): about 15 significant digits for x > 0. */
export function lnGamma(x) {
  const c = [0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
    -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6,
    1.5056327351493116e-7];
  if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - lnGamma(1 - x);
  x -= 1;
  let sum = c[0];
  for (let i = 1; i < 9; i++) sum += c[i] / (x + i);
  const t = x + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(sum);
}

/**
 * The regularized upper incomplete gamma function Q(a, x) = Γ(a, x) / Γ(a): the series for
 * P = 1 - Q below x < a + 1, Lentz's continued fraction for Q above (Numerical Recipes 6.2).
 */
export function gammaQ(a, x) {
  if (x <= 0) return 1;
  const front = Math.exp(-x + a * Math.log(x) - lnGamma(a));
  if (x < a + 1) {
    let term = 1 / a;
    let sum = term;
    for (let n = 1; n < 1000 && Math.abs(term) > Math.abs(sum) * 1e-16; n++) {
      term *= x / (a + n);
      sum += term;
    }
    return Math.max(0, 1 - sum * front);
  }
  const tiny = 1e-300;
  let b = x + 1 - a;
  let c = 1 / tiny;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < 1000; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < tiny) d = tiny;
    c = b + an / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < 1e-16) break;
  }
  return Math.min(1, front * h);
}

/**
 * Everything the page and the audit report about a set of re-derived rounds. Each round is
 * `{game, params, wager, payout, house_agent, roll_hundredths?, pocket?}`.
 */
export function fairnessStats(rounds) {
  const games = Object.fromEntries(GAMES.map((g) => [g, newTally()]));
  const dice = Array(DICE_BINS).fill(0);
  const pockets = Array(ROULETTE_BINS).fill(0);
  for (const round of rounds) {
    addRound(games[round.game], round);
    if (round.game === 'dice') dice[diceBin(round.roll_hundredths)] += 1;
    if (round.game === 'roulette') pockets[round.pocket] += 1;
  }
  return {
    games: Object.fromEntries(GAMES.map((g) => [g, summarize(games[g])])),
    dice_rolls: { bins: dice, ...chiSquare(dice, diceBinChances()) },
    roulette_pockets: { bins: pockets, ...chiSquare(pockets, pocketChances()) },
  };
}
