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
 * The win chances the wins are counted in, bucket i holding the calls of chance at least
 * CHANCE_EDGES[i] and below the edge before it. A skew among rounds of one chance is judged
 * beside rounds of about that chance: many rounds of other odds (one-chip long shots beside
 * even-money bets) widen the return's bands, not this bucket's count of wins.
 */
export const CHANCE_EDGES = [1 / 2, 1 / 8, 1 / 32, 1 / 128, 0];
const chanceBucket = (p) => CHANCE_EDGES.findIndex((edge) => p >= edge);

/**
 * A running tally of rounds: wagered, paid out, and the exact expectation with its variance, by
 * the chip (`by_chip`: payouts as paid) and by the round (`by_round`: each round's payout per
 * chip wagered, so that no one round, however large its wager, outweighs the others); and the
 * wins by win chance (`by_chance`, one sum per CHANCE_EDGES bucket: a win counts 1, whatever its
 * wager). Rounds beyond the published limits (`over_limits`) are counted apart and in no band.
 */
export function newTally() {
  return {
    rounds: 0, house_agent_rounds: 0, over_limits: 0, wagered: 0, paid_out: 0, by_chip: newSum(), by_round: newSum(),
    by_chance: CHANCE_EDGES.map(() => ({ rounds: 0, ...newSum() })),
  };
}

/**
 * Whether a round lies beyond the published `limits` (`{max_wager_chips, max_payout_chips}` of
 * /api/arcade/games; null: none to hold it to): a wager above the largest, or a win whose
 * largest profit, ceil(R) - wager, is above the payout limit. The arcade refuses such a call, so
 * a round of one is the house's own doing, and it is kept out of the bands it would widen.
 */
export function beyondLimits(limits, { odds, wager }) {
  if (!limits) return false;
  return wager > limits.max_wager_chips || roundMoments(odds).most - wager > limits.max_payout_chips;
}

/** Adds one settled round (its odds, wager, payout and win as re-derived) to a tally. */
export function addRound(tally, { odds, wager, payout, won, house_agent }, limits = null) {
  if (typeof won !== 'boolean') throw new TypeError('a round to count needs its re-derived `won`');
  tally.rounds += 1;
  if (house_agent) tally.house_agent_rounds += 1;
  if (beyondLimits(limits, { odds, wager })) {
    tally.over_limits += 1;
    return tally;
  }
  const moments = roundMoments(odds);
  tally.wagered += wager;
  tally.paid_out += payout;
  addToSum(tally.by_chip, moments, payout);
  const perChip = { mean: moments.mean / wager, variance: moments.variance / (wager * wager), most: moments.most / wager };
  addToSum(tally.by_round, perChip, payout / wager);
  const p = odds.w / odds.n;
  const bucket = tally.by_chance[chanceBucket(p)];
  bucket.rounds += 1;
  addToSum(bucket, { mean: p, variance: p * (1 - p), most: 1 }, won ? 1 : 0);
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
 * approximation: expected ± 1.96 σ / wagered), and the alarm bands a fair game leaves, all of
 * them together, with probability at most ALARM_P whatever its payouts' law (Bernstein's
 * inequality). Three tests share that p, a third each:
 * - the return by the chip (`alarm_interval`);
 * - the return by the round (`per_round_return` in `per_round_alarm_interval`: the mean of each
 *   round's payout per chip), so that one round of a huge wager, whose variance widens the band
 *   by the chip, cannot hide a skewed game;
 * - the wins of each win chance (`wins_by_chance`, each bucket its share of the third), so that
 *   rounds of other odds, whose payouts' variance widens both returns' bands, cannot hide a skew
 *   among rounds of one chance: a skew that lowers the return takes wins away where it acts.
 * `in_band` is false when any of them leaves its band, null with fewer than MIN_RTP_ROUNDS rounds
 * counted. Rounds beyond the published limits (`over_limits`) are in no band.
 */
export function summarize(tally) {
  const { rounds, house_agent_rounds, over_limits, wagered, paid_out, by_chip, by_round, by_chance } = tally;
  const counted = rounds - over_limits;
  const filled = by_chance.map((sum, i) => ({ sum, i })).filter(({ sum }) => sum.rounds > 0);
  if (wagered === 0) return { rounds, house_agent_rounds, over_limits, wagered, paid_out, realized_return: null, expected_return: null, interval: null, within_interval: null, alarm_interval: null, per_round_return: null, per_round_alarm_interval: null, wins_by_chance: [], in_band: null };
  const expected = by_chip.expected / wagered;
  const sigma = Math.sqrt(by_chip.variance) / wagered;
  const realized = paid_out / wagered;
  const interval = [expected - 1.96 * sigma, expected + 1.96 * sigma];
  const band = (sum, scale, p) => [
    (sum.expected - bernsteinReach(sum.variance, sum.below, p)) / scale,
    (sum.expected + bernsteinReach(sum.variance, sum.above, p)) / scale,
  ];
  const alarm = band(by_chip, wagered, ALARM_P / 3);
  const perRound = by_round.total / counted;
  const perRoundAlarm = band(by_round, counted, ALARM_P / 3);
  const inside = (x, [lo, hi]) => x >= lo && x <= hi;
  const wins = filled.map(({ sum, i }) => ({
    chance_at_least: CHANCE_EDGES[i],
    chance_below: i === 0 ? 1 : CHANCE_EDGES[i - 1],
    rounds: sum.rounds,
    wins: sum.total,
    expected_wins: sum.expected,
    // Each bucket its fixed fifth of the third, however many hold rounds.
    alarm_interval: band(sum, 1, ALARM_P / 3 / CHANCE_EDGES.length),
  }));
  const judged = counted >= MIN_RTP_ROUNDS;
  return {
    rounds, house_agent_rounds, over_limits, wagered, paid_out,
    realized_return: realized, expected_return: expected, interval,
    within_interval: inside(realized, interval),
    alarm_interval: alarm,
    per_round_return: perRound,
    per_round_alarm_interval: perRoundAlarm,
    wins_by_chance: wins.map((w) => ({ ...w, in_band: judged ? inside(w.wins, w.alarm_interval) : null })),
    in_band: !judged ? null : inside(realized, alarm) && inside(perRound, perRoundAlarm) && wins.every((w) => inside(w.wins, w.alarm_interval)),
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

/**
 * A running account of re-derived rounds: a tally per game and each histogram's counts, the
 * rounds held to `limits` (see beyondLimits; null: to none).
 */
export function newStats(limits = null) {
  return {
    limits,
    games: Object.fromEntries(GAMES.map((g) => [g, newTally()])),
    bins: Object.fromEntries(HISTOGRAMS.map((h) => [h.name, Array(h.bins).fill(0)])),
  };
}

/** Adds one re-derived round `{game, odds, wager, payout, won, house_agent, result}`. */
export function addToStats(stats, round) {
  known(round.game);
  addRound(stats.games[round.game], round, stats.limits);
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
export function fairnessStats(rounds, limits = null) {
  const stats = newStats(limits);
  for (const round of rounds) addToStats(stats, round);
  return statsOf(stats);
}

/** Fewest results for a chi-square test: an expected count of about 5 in the least likely bin. */
const minChiRounds = (h) => Math.round(5 / Math.min(...h.chances()));

/**
 * The statistics out of band, in words (empty when none is): a game's return, or its wins of
 * one win chance, outside an alarm band (together once in a thousand audits of a fair game), a
 * histogram's chi-square p below ALARM_P (as rarely), or rounds beyond the published limits
 * (never, on an honest floor).
 */
export function statsProblems(stats) {
  const pct = (x) => `${(100 * x).toFixed(2)}%`;
  const found = [];
  const share = (x) => (x === 0 || x === 1 ? String(x) : `1/${Math.round(1 / x)}`);
  for (const [game, s] of Object.entries(stats.games)) {
    if (s.over_limits > 0) {
      found.push(`${game}: ${s.over_limits} of ${s.rounds} rounds beyond the published limits (a wager above the largest, or a win's profit above the payout limit): the arcade refuses such a call, and these rounds are in no band`);
    }
    if (s.in_band !== false) continue;
    // One line a game: the first of its tests that fails.
    if (s.realized_return < s.alarm_interval[0] || s.realized_return > s.alarm_interval[1]) {
      found.push(`${game}: return to player ${pct(s.realized_return)} over ${s.rounds} rounds, outside its band ${pct(s.alarm_interval[0])} – ${pct(s.alarm_interval[1])} (expected ${pct(s.expected_return)}, p < ${ALARM_P})`);
    } else if (s.per_round_return < s.per_round_alarm_interval[0] || s.per_round_return > s.per_round_alarm_interval[1]) {
      found.push(`${game}: return per round ${pct(s.per_round_return)} over ${s.rounds} rounds, outside its band ${pct(s.per_round_alarm_interval[0])} – ${pct(s.per_round_alarm_interval[1])} (the return by the chip is ${pct(s.realized_return)}, p < ${ALARM_P})`);
    } else {
      const wins = s.wins_by_chance.filter((bucket) => bucket.in_band === false)
        .map((w) => `${w.wins} wins in ${w.rounds} rounds of win chance ${share(w.chance_at_least)} to ${share(w.chance_below)}, outside its band ${w.alarm_interval[0].toFixed(1)} – ${w.alarm_interval[1].toFixed(1)} (expected ${w.expected_wins.toFixed(1)})`);
      found.push(`${game}: ${wins.join('; ')}, p < ${ALARM_P} (the return to player is ${pct(s.realized_return)}, in its band)`);
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
