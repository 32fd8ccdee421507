// The statistics of the fairness audit, pure and shared: the audit command imports this file
// and the verifier page serves it as /web/stats.js. A round's win chance W/N and the exact
// return R of a win come from the wasm core's re-derivation of it (its report's trace, see
// oddsOf); nothing here trusts a number the server computed, and no game's rule is written here.

const DICE_OUTCOMES = 10001;
const POCKETS = 37;
const LIMBO_SCALE = 99 * 2 ** 32;

/** The games the statistics count, in the core's order (a test holds them to the core's list). */
export const GAMES = ['coinflip', 'dice', 'roulette', 'limbo'];

/**
 * A round's odds as the wasm core re-derived them, from its report's `trace`: winning outcomes
 * `w` of `n` equally likely ones for its call, and the exact return of a win, wager included, as
 * the fraction a / b chips. Each fits a double exactly (below 2^53) for every call of fairness v1
 * and every wager up to 21000 chips.
 */
export function oddsOf(trace) {
  const count = (text, what) => {
    if (typeof text !== 'string' || !/^[0-9]{1,30}$/.test(text)) {
      throw Object.assign(new Error(`the core's trace has no ${what} (a wasm module of another version?)`), { code: 'invalid_trace' });
    }
    return Number(text);
  };
  const odds = {
    w: count(trace?.winning_count, 'winning_count'),
    n: count(trace?.outcomes, 'outcomes'),
    a: count(trace?.exact_return?.numerator, 'exact_return.numerator'),
    b: count(trace?.exact_return?.denominator, 'exact_return.denominator'),
  };
  if (odds.w < 1 || odds.w > odds.n || odds.b < 1) {
    throw Object.assign(new Error(`the core's trace has odds ${odds.w} of ${odds.n}, return ${odds.a}/${odds.b}`), { code: 'invalid_trace' });
  }
  return odds;
}

/** A game the statistics know; another game is refused by name, never counted as one of these. */
function known(game) {
  if (GAMES.includes(game)) return game;
  throw new Error(`unknown game ${JSON.stringify(game)}; the statistics know ${GAMES.join(', ')}`);
}

/**
 * Mean, variance and largest value of one round's payout. A win pays floor(R) plus a fair bonus
 * chip with probability frac(R) (drawn from u1, independent of the outcome), so
 * E[X] = p·R, E[X²] = p·(f² + frac·(2f + 1)) and the most it pays is ceil(R).
 */
export function roundMoments({ w, n, a, b }) {
  const p = w / n;
  const f = Math.floor(a / b);
  const frac = (a % b) / b;
  const mean = p * (a / b);
  const most = frac > 0 ? f + 1 : f;
  return { mean, variance: p * (f * f + frac * (2 * f + 1)) - mean * mean, most };
}

/**
 * A running sum of independent rounds' payouts beside its exact expectation and variance, and
 * how far one round moves it above (`above`) and below (`below`) its mean at most.
 */
const newSum = () => ({ total: 0, expected: 0, variance: 0, above: 0, below: 0 });

function addToSum(sum, { mean, variance, most }, paid) {
  sum.total += paid;
  sum.expected += mean;
  sum.variance += variance;
  sum.above = Math.max(sum.above, most - mean);
  sum.below = Math.max(sum.below, mean);
}

/**
 * A running tally of rounds: wagered, paid out, and the exact expectation with its variance, by
 * the chip (`by_chip`: payouts as paid) and by the round (`by_round`: each round's payout per
 * chip wagered, so that no one round, however large its wager, outweighs the others).
 */
export function newTally() {
  return { rounds: 0, house_agent_rounds: 0, wagered: 0, paid_out: 0, by_chip: newSum(), by_round: newSum() };
}

/** Adds one settled round (its odds and payout as re-derived) to a tally. */
export function addRound(tally, { odds, wager, payout, house_agent }) {
  const moments = roundMoments(odds);
  tally.rounds += 1;
  if (house_agent) tally.house_agent_rounds += 1;
  tally.wagered += wager;
  tally.paid_out += payout;
  addToSum(tally.by_chip, moments, payout);
  const perChip = { mean: moments.mean / wager, variance: moments.variance / (wager * wager), most: moments.most / wager };
  addToSum(tally.by_round, perChip, payout / wager);
  return tally;
}

/** The alarm p: a fair game leaves its return band, or fails a chi-square test, this rarely. */
export const ALARM_P = 0.001;

/**
 * How far a sum of independent rounds strays from its expectation, one way, with probability at
 * most p/2 whatever the payouts' law (Bernstein's inequality): `variance` is the sum's, `most` the
 * largest one round moves that way. A normal band is too narrow for limbo's rare large wins.
 */
function bernsteinReach(variance, most, p = ALARM_P) {
  const l = Math.log(2 / p);
  const lead = (l * most) / 3;
  return lead + Math.sqrt(lead * lead + 2 * l * variance);
}
/** Fewer rounds of a game than this and its return is not judged (the normal law is too rough). */
export const MIN_RTP_ROUNDS = 100;

/**
 * Realized return to player (paid out / wagered) beside the exact expected return for exactly
 * these bets, the 95% interval the realized return falls in when the game is fair (normal
 * approximation: expected ± 1.96 σ / wagered), and the alarm band a fair game leaves with
 * probability at most 0.001 whatever its payouts' law (Bernstein's inequality). The return is
 * judged twice, each at p = 0.0005: by the chip, and by the round (the mean of each round's
 * payout per chip, `per_round_return` in `per_round_alarm_interval`), so that one round of a
 * huge wager, whose variance widens the band by the chip, cannot hide a skewed game. `in_band`
 * is false when either return leaves its band, null with fewer than MIN_RTP_ROUNDS rounds.
 */
export function summarize(tally) {
  const { rounds, house_agent_rounds, wagered, paid_out, by_chip, by_round } = tally;
  if (wagered === 0) return { rounds, house_agent_rounds, wagered, paid_out, realized_return: null, expected_return: null, interval: null, within_interval: null, alarm_interval: null, per_round_return: null, per_round_alarm_interval: null, in_band: null };
  const expected = by_chip.expected / wagered;
  const sigma = Math.sqrt(by_chip.variance) / wagered;
  const realized = paid_out / wagered;
  const interval = [expected - 1.96 * sigma, expected + 1.96 * sigma];
  const band = (sum, scale) => [
    (sum.expected - bernsteinReach(sum.variance, sum.below, ALARM_P / 2)) / scale,
    (sum.expected + bernsteinReach(sum.variance, sum.above, ALARM_P / 2)) / scale,
  ];
  const alarm = band(by_chip, wagered);
  const perRound = by_round.total / rounds;
  const perRoundAlarm = band(by_round, rounds);
  const inside = (x, [lo, hi]) => x >= lo && x <= hi;
  return {
    rounds, house_agent_rounds, wagered, paid_out,
    realized_return: realized, expected_return: expected, interval,
    within_interval: inside(realized, interval),
    alarm_interval: alarm,
    per_round_return: perRound,
    per_round_alarm_interval: perRoundAlarm,
    in_band: rounds < MIN_RTP_ROUNDS ? null : inside(realized, alarm) && inside(perRound, perRoundAlarm),
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

/**
 * Limbo's bins: results below 1.10x, then from each edge (in hundredths) to the next, the last
 * from 1000.00x up. A result of `h` hundredths is drawn by the u0 in (99·2^32/(h+1), 99·2^32/h],
 * so a bin [lo, hi) has chance (floor(S/lo) - floor(S/hi)) / 2^32 with S = 99·2^32, the cap's
 * draws (u0 <= floor(S/1e8)) counted in the last.
 */
const LIMBO_EDGES = [110, 125, 150, 200, 300, 500, 1000, 2000, 10000, 100000];
const limboBin = (result) => LIMBO_EDGES.filter((edge) => result.result_hundredths >= edge).length;
export const limboBinChances = () => {
  // Every draw's result is at least 1.00x; one of at least h > 1.00x is a u0 in 0 ..= floor(S/h).
  const tail = [2 ** 32, ...LIMBO_EDGES.map((h) => Math.floor(LIMBO_SCALE / h) + 1)];
  return tail.map((atLeast, i) => (atLeast - (i + 1 < tail.length ? tail[i + 1] : 0)) / 2 ** 32);
};

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
 * Each game's histogram of results, the one table the audit, the page and the monitor read: its
 * key in the statistics, its game, its name in a sentence and with its bins, how a re-derived result falls into a bin, each bin's chance
 * under fairness v1, and how it is drawn and named.
 */
export const HISTOGRAMS = [
  {
    name: 'dice_rolls', game: 'dice', what: 'dice rolls', title: 'dice rolls, 100 bins', bins: DICE_BINS,
    bin: (result) => diceBin(result.roll_hundredths), chances: diceBinChances,
    every: 10, xLabel: 'roll (whole points; 100.00 in the last bin)',
  },
  {
    name: 'roulette_pockets', game: 'roulette', what: 'roulette pockets', title: 'roulette pockets, 37 bins', bins: ROULETTE_BINS,
    bin: (result) => result.pocket, chances: pocketChances,
    every: 3, xLabel: 'pocket',
  },
  {
    name: 'limbo_results', game: 'limbo', what: 'limbo results', title: `limbo results, ${LIMBO_EDGES.length + 1} bins`, bins: LIMBO_EDGES.length + 1,
    bin: limboBin, chances: limboBinChances,
    every: 1, xLabel: 'result at least (x)',
  },
];

/** A running account of re-derived rounds: a tally per game and each histogram's counts. */
export function newStats() {
  return {
    games: Object.fromEntries(GAMES.map((g) => [g, newTally()])),
    bins: Object.fromEntries(HISTOGRAMS.map((h) => [h.name, Array(h.bins).fill(0)])),
  };
}

/** Adds one re-derived round `{game, odds, wager, payout, house_agent, result}`. */
export function addToStats(stats, round) {
  known(round.game);
  addRound(stats.games[round.game], round);
  for (const h of HISTOGRAMS) if (round.game === h.game) stats.bins[h.name][h.bin(round.result)] += 1;
  return stats;
}

/** What the page and the audit report about the rounds added so far. */
export function statsOf(stats) {
  return {
    games: Object.fromEntries(GAMES.map((g) => [g, summarize(stats.games[g])])),
    ...Object.fromEntries(HISTOGRAMS.map((h) => [h.name, { bins: stats.bins[h.name], ...chiSquare(stats.bins[h.name], h.chances()) }])),
  };
}

/** Everything the page and the audit report about a set of re-derived rounds. */
export function fairnessStats(rounds) {
  const stats = newStats();
  for (const round of rounds) addToStats(stats, round);
  return statsOf(stats);
}

/** Fewest results for a chi-square test: an expected count of about 5 in the least likely bin. */
const minChiRounds = (h) => Math.round(5 / Math.min(...h.chances()));

/**
 * The statistics out of band, in words (empty when none is): a game's return outside its alarm
 * band, or a histogram's chi-square p below ALARM_P. Each alone happens to a fair game once in
 * a thousand audits.
 */
export function statsProblems(stats) {
  const pct = (x) => `${(100 * x).toFixed(2)}%`;
  const found = [];
  for (const [game, s] of Object.entries(stats.games)) {
    if (s.in_band !== false) continue;
    if (s.realized_return < s.alarm_interval[0] || s.realized_return > s.alarm_interval[1]) {
      found.push(`${game}: return to player ${pct(s.realized_return)} over ${s.rounds} rounds, outside its band ${pct(s.alarm_interval[0])} – ${pct(s.alarm_interval[1])} (expected ${pct(s.expected_return)}, p < ${ALARM_P})`);
    } else {
      found.push(`${game}: return per round ${pct(s.per_round_return)} over ${s.rounds} rounds, outside its band ${pct(s.per_round_alarm_interval[0])} – ${pct(s.per_round_alarm_interval[1])} (the return by the chip is ${pct(s.realized_return)}, p < ${ALARM_P})`);
    }
  }
  for (const h of HISTOGRAMS) {
    const test = stats[h.name];
    if (test.total >= minChiRounds(h) && test.p_value !== null && test.p_value < ALARM_P) {
      found.push(`${h.what}: chi-square ${test.statistic.toFixed(1)} (${test.df} df) over ${test.total} rounds, p = ${test.p_value.toExponential(2)} < ${ALARM_P}`);
    }
  }
  return found;
}
