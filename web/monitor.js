// The fairness monitor: the last N rounds of the public feed, each re-derived in this browser by
// the wasm core (the server's outcome and payout are compared, never used), its signatures and
// seed-batch proof checked, then drawn: the return to player per game beside the exact
// expectation and its 95% band, and the dice rolls and roulette pockets against a fair law.
// Runs when the section comes into view, and again on "Check".
import * as wasm from '../wasm/arcade.js';
import { histogram, returnChart } from './charts.js';
import { fetchReceipts, fetchTrust, getJson, latestBetId } from './feed.mjs';
import { isUnsigned, judgeReceipt, rederive } from './rounds.mjs';
import {
  GAMES, addRound, diceBinChances, fairnessStats, newTally, pocketChances, summarize,
} from './stats.mjs';

const $ = (selector) => document.querySelector(selector);
const el = (tag, text, className) => Object.assign(document.createElement(tag), text === undefined ? {} : { textContent: text }, className ? { className } : {});
const pct = (x) => (x === null ? '—' : `${(100 * x).toFixed(2)}%`);
const pValue = (p) => (p === null ? '—' : p < 0.0001 ? p.toExponential(1) : p.toFixed(3));

let proofsModule;
/** The signature module (/wasm/arcade_proofs.js), or null where the server does not serve it. */
function loadProofs() {
  proofsModule ??= import('../wasm/arcade_proofs.js')
    .then(async (module) => {
      await module.default({ module_or_path: new URL('../wasm/arcade_proofs_bg.wasm', import.meta.url) });
      return module;
    })
    .catch(() => null);
  return proofsModule;
}

/** Without the proofs module a round is only re-derived (its signatures shown as not checked). */
function judgeWithoutProofs(receipt) {
  const { round, why } = rederive(wasm, receipt);
  const status = why ? 'failed' : isUnsigned(receipt.proofs) ? 'unsigned' : 'verified';
  return { round, status, failures: why ? [why] : [] };
}

async function judgeAll(n) {
  const base = location.origin;
  const [proofs, trust, batchList, latest] = await Promise.all([
    loadProofs(), fetchTrust(base), getJson(base, '/api/arcade/seed-batches').catch(() => []), latestBetId(base),
  ]);
  const receipts = await fetchReceipts(base, { after: Math.max(0, latest - n), limit: n });
  const context = { wasm, proofs, trust, batches: new Map(batchList.map((b) => [b.batch_id, b])) };
  const judged = receipts.map((receipt) => ({
    bet_id: receipt.bet_id,
    ...(proofs ? judgeReceipt(context, receipt) : judgeWithoutProofs(receipt)),
  }));
  return { judged, signaturesChecked: proofs !== null };
}

/** Running return per game after each of its rounds. */
function runningReturns(rounds) {
  const tallies = Object.fromEntries(GAMES.map((g) => [g, newTally()]));
  const points = Object.fromEntries(GAMES.map((g) => [g, []]));
  for (const round of rounds) {
    const s = summarize(addRound(tallies[round.game], round));
    points[round.game].push({ n: s.rounds, realized: s.realized_return, expected: s.expected_return, lo: s.interval[0], hi: s.interval[1] });
  }
  return points;
}

function showCounts(counts, signaturesChecked) {
  const box = $('#monitor-status');
  Object.assign(box.dataset, { state: 'done', ...Object.fromEntries(Object.entries(counts).map(([k, v]) => [k, String(v)])) });
  const stat = (label, value, cls) => {
    const cell = el('div', undefined, cls);
    cell.append(el('div', label, 'muted'), el('strong', String(value)));
    return cell;
  };
  box.replaceChildren(
    stat('Rounds checked', counts.rounds),
    stat(signaturesChecked ? 'Verified and signed' : 'Re-derived', counts.verified, 'ok'),
    stat('Failed', counts.failed, counts.failed > 0 ? 'bad' : ''),
    stat('Unsigned (re-derived; before signing began)', counts.unsigned),
  );
  $('#monitor-note').textContent = signaturesChecked ? ''
    : 'Signatures were not checked: this server does not serve the proofs module (/wasm/arcade_proofs.js).';
}

function showFailures(failed) {
  const box = $('#monitor-failures');
  if (failed.length === 0) return box.replaceChildren();
  const banner = el('div', undefined, 'verdict fail');
  banner.dataset.verdict = 'fail';
  banner.append(el('strong', `FAIL: ${failed.length} round${failed.length === 1 ? '' : 's'} did not verify`));
  const list = el('ul');
  for (const f of failed.slice(0, 20)) list.append(el('li', `bet ${f.bet_id}: ${f.failures.join('; ')}`));
  banner.append(list);
  box.replaceChildren(banner);
}

function showGames(games) {
  const rows = GAMES.map((game) => {
    const s = games[game];
    const row = el('tr');
    Object.assign(row.dataset, { game, rounds: s.rounds, wagered: s.wagered, paidOut: s.paid_out });
    const interval = s.interval ? `${pct(s.interval[0])} – ${pct(s.interval[1])}` : '—';
    for (const cell of [game, `${s.rounds} (${s.house_agent_rounds})`, s.wagered, s.paid_out, pct(s.realized_return), pct(s.expected_return), interval]) {
      row.append(el('td', String(cell)));
    }
    if (s.within_interval === false) row.className = 'outside';
    return row;
  });
  $('#monitor-games tbody').replaceChildren(...rows);
}

function showCharts(rounds, stats) {
  const points = runningReturns(rounds);
  const returns = GAMES.filter((g) => points[g].length > 0)
    .map((g) => returnChart({ title: `${g}: return to player over ${points[g].length} rounds`, points: points[g] }));
  const { dice_rolls: dice, roulette_pockets: wheel } = stats;
  const expect = (chances, total) => chances.map((c) => c * total);
  $('#monitor-charts').replaceChildren(
    ...returns,
    histogram({ title: `dice rolls, 100 bins of one point: chi-square p = ${pValue(dice.p_value)}`, bins: dice.bins, expected: expect(diceBinChances(), dice.total), every: 10, xLabel: 'roll (whole points; 100.00 in the last bin)' }),
    histogram({ title: `roulette pockets: chi-square p = ${pValue(wheel.p_value)}`, bins: wheel.bins, expected: expect(pocketChances(), wheel.total), every: 3, xLabel: 'pocket' }),
  );
}

/** Fetches, judges and draws the last `n` rounds. */
export async function runMonitor(n) {
  const status = $('#monitor-status');
  status.dataset.state = 'running';
  status.textContent = `Re-deriving the last ${n} rounds in this browser…`;
  try {
    const { judged, signaturesChecked } = await judgeAll(n);
    const counts = { rounds: judged.length, verified: 0, failed: 0, unsigned: 0 };
    for (const j of judged) counts[j.status] += 1;
    const rounds = judged.map((j) => j.round).filter(Boolean);
    const stats = fairnessStats(rounds);
    showCounts(counts, signaturesChecked);
    showFailures(judged.filter((j) => j.status === 'failed'));
    showGames(stats.games);
    showCharts(rounds, stats);
  } catch (error) {
    status.dataset.state = 'error';
    status.textContent = `monitor unavailable: ${error.message}`;
  }
}

/** Wires the form and runs once the section is (nearly) in view. */
export function startMonitor() {
  const section = $('#monitor');
  const count = () => Math.min(20000, Math.max(1, Number($('#monitor-n').value) || 1000));
  $('#monitor-form').addEventListener('submit', (event) => {
    event.preventDefault();
    runMonitor(count());
  });
  const observer = new IntersectionObserver((entries) => {
    if (!entries.some((e) => e.isIntersecting)) return;
    observer.disconnect();
    runMonitor(count());
  }, { rootMargin: '200px' });
  observer.observe(section);
}
