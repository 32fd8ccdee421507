// The fairness monitor: the last N rounds of the public feed, audited in this browser exactly as
// the audit command audits the floor (audit/floor.mjs): each round re-derived by the wasm core
// (the server's outcome and payout are compared, never used), its signatures checked against
// the pinned signer, its seed shown in a signed batch and compared with the batch's row, the
// feed's paging checked and every settled bet of the recent batches found in it. Then drawn:
// the return to player per game beside the exact expectation and its 95% band, and each game's
// histogram of results (stats.mjs's HISTOGRAMS) against its fair law; statistics out of band raise a banner.
// Loaded and run when the section comes into view (app.js), and again on "Check"; while it runs it shows the rounds
// checked, the rate and the time left, and any wait the arcade's rate limit asks for, and
// "Cancel" stops it.
import { histogram, returnChart } from './charts.js';
import { auditFloor } from './floor.mjs';
import { pinned } from './pin.js';
import { GAMES, HISTOGRAMS, addRound, newTally, summarize } from './stats.mjs';
import { modules } from './verifier.js';

const $ = (selector) => document.querySelector(selector);
const el = (tag, text, className) => Object.assign(document.createElement(tag), text === undefined ? {} : { textContent: text }, className ? { className } : {});
const pct = (x) => (x === null ? '—' : `${(100 * x).toFixed(2)}%`);
const pValue = (p) => (p === null ? '—' : p < 0.0001 ? p.toExponential(1) : p.toFixed(3));

/**
 * What the status box says while an audit runs: rounds checked of the window's, the rate and
 * the time left, or the wait the arcade's rate limit asked for. Drawn once a frame at most,
 * after the rounds of a page are judged; never once the audit has ended or was cancelled.
 */
function progress(status, signal) {
  const state = { checked: 0, total: null, started: performance.now(), waitingUntil: 0, scheduled: false };
  const draw = () => {
    state.scheduled = false;
    if (signal.aborted || status.dataset.state !== 'running') return;
    const now = performance.now();
    Object.assign(status.dataset, { checked: String(state.checked), total: String(state.total ?? '') });
    if (now < state.waitingUntil) return;
    const seconds = (now - state.started) / 1000;
    const rate = seconds > 0 ? state.checked / seconds : 0;
    const of = state.total === null ? '' : ` of about ${state.total}`;
    const left = state.total !== null && rate > 0 && state.checked > 0
      ? ` · about ${Math.max(0, Math.ceil((state.total - state.checked) / rate))} s left` : '';
    status.textContent = `Checking in this browser: ${state.checked}${of} rounds re-derived and their proofs checked · ${rate.toFixed(0)} rounds/s${left}`;
  };
  const schedule = () => {
    if (state.scheduled) return;
    state.scheduled = true;
    requestAnimationFrame(draw);
  };
  return {
    onWindow: ({ after, until }) => { state.total = Math.max(0, until - after); schedule(); },
    onRound: () => { state.checked += 1; schedule(); },
    onWait: ({ seconds }) => {
      if (signal.aborted || status.dataset.state !== 'running') return;
      state.waitingUntil = performance.now() + seconds * 1000;
      status.dataset.waiting = String(seconds);
      status.textContent = `Waiting ${seconds} s: the arcade limits how fast one reader may fetch its feed. ${state.checked} rounds checked so far; the audit goes on by itself.`;
      setTimeout(() => { if (!signal.aborted) delete status.dataset.waiting; schedule(); }, seconds * 1000);
    },
  };
}

/** Audits the last `n` rounds: the floor's report and the re-derived rounds, in bet order. */
async function judgeAll(n, { signal, status }) {
  const [loaded, pin] = await Promise.all([modules(), pinned()]);
  const rounds = [];
  const shown = progress(status, signal);
  const report = await auditFloor({
    baseUrl: location.origin, modules: loaded, pin, limit: n, recent: true, signal,
    onWindow: shown.onWindow, onWait: shown.onWait,
    onRound: (verdict) => { shown.onRound(); if (verdict.round) rounds.push(verdict.round); },
  });
  return { report, rounds, signaturesChecked: loaded.proofs !== null };
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

function showCounts(report, signaturesChecked) {
  const box = $('#monitor-status');
  const counts = {
    rounds: report.rounds, verified: report.verified, unsigned: report.unsigned, unsignedPlays: report.unsigned_plays,
    reusedClientSeeds: report.reused_client_seeds, failed: report.failed, failures: report.failures_total, verdict: report.verdict,
  };
  Object.assign(box.dataset, { state: 'done', ...Object.fromEntries(Object.entries(counts).map(([k, v]) => [k, String(v)])) });
  const stat = (label, value, cls) => {
    const cell = el('div', undefined, cls);
    cell.append(el('div', label, 'muted'), el('strong', String(value)));
    return cell;
  };
  box.replaceChildren(
    stat('Rounds checked', report.rounds),
    stat('Pass: proven', report.verified, 'ok'),
    stat('Consistent, not proven', report.unsigned),
    stat('Failed checks', report.failures_total, report.failures_total > 0 ? 'bad' : ''),
  );
  const plays = report.unsigned_plays > 0
    ? `${report.unsigned_plays} round(s) were played without the player's Play signature: the house's signatures hold, but only the house says which commitment the player was shown. `
    : '';
  const reused = report.reused_client_seeds > 0
    ? `${report.reused_client_seeds} round(s) reuse a client seed their address played before (bets ${report.reused_client_seed_bets.slice(0, 10).join(', ')}${report.reused_client_seeds > 10 ? ', …' : ''}): the house knew it before it committed, so it could order its seeds. `
    : '';
  $('#monitor-note').textContent = (signaturesChecked ? '' : 'Signatures were not checked: this server does not serve the proofs module (/wasm/arcade_proofs.js), so no round is proven. ') +
    plays + reused + `Signer ${report.signer ?? 'none'}${report.signer_pinned ? ' (pinned in this browser)' : ''}; bets ${report.window.after + 1}–${report.window.until}.`;
}

function where(f) {
  if (f.bet_id != null) return `bet ${f.bet_id}`;
  if (f.batch_id != null) return `batch ${f.batch_id}${f.index != null ? ` index ${f.index}` : ''}`;
  return 'arcade';
}

function showFailures(report) {
  const box = $('#monitor-failures');
  if (report.failures_total === 0) return box.replaceChildren();
  const banner = el('div', undefined, 'verdict fail');
  banner.dataset.verdict = 'fail';
  banner.dataset.checks = Object.keys(report.failed_checks).join(' ');
  const checks = Object.entries(report.failed_checks).map(([c, n]) => `${c} ${n}`).join(', ');
  banner.append(el('strong', `FAIL: ${report.failures_total} check${report.failures_total === 1 ? '' : 's'} failed (${checks})`));
  const list = el('ul');
  for (const f of report.failures.slice(0, 20)) list.append(el('li', `${where(f)} [${f.check}]: ${f.why}`));
  banner.append(list);
  box.replaceChildren(banner);
}

function showStats(report) {
  const box = $('#monitor-stats');
  box.dataset.state = report.stats_problems.length > 0 ? 'out-of-band' : 'in-band';
  if (report.stats_problems.length === 0) return box.replaceChildren();
  const banner = el('div', undefined, 'banner stats');
  banner.append(el('strong', 'Statistics out of band: each test alone shows this for a fair floor once in a thousand checks, all of them together about seven times in a thousand'));
  const list = el('ul');
  for (const why of report.stats_problems) list.append(el('li', why));
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
    // Out of band by the chip or by the round (the interval is the chip's alone).
    if (s.in_band === false) row.className = 'outside out-of-band';
    else if (s.within_interval === false) row.className = 'outside';
    return row;
  });
  $('#monitor-games tbody').replaceChildren(...rows);
}

function showCharts(rounds, stats) {
  const points = runningReturns(rounds);
  const returns = GAMES.filter((g) => points[g].length > 0)
    .map((g) => returnChart({ title: `${g}: return to player over ${points[g].length} rounds`, points: points[g] }));
  const histograms = HISTOGRAMS.map((h) => {
    const test = stats[h.name];
    const expected = h.chances().map((c) => c * test.total);
    return histogram({ title: `${h.title}: chi-square p = ${pValue(test.p_value)}`, bins: test.bins, expected, every: h.every, xLabel: h.xLabel });
  });
  $('#monitor-charts').replaceChildren(...returns, ...histograms);
}

/** The audit running now, which the Cancel button stops (null: none). */
let running = null;

/** Fetches, judges and draws the last `n` rounds; a run already going is cancelled first. */
export async function runMonitor(n) {
  running?.abort();
  const controller = new AbortController();
  running = controller;
  const status = $('#monitor-status');
  const cancel = $('#monitor-cancel');
  status.replaceChildren();
  for (const key of Object.keys(status.dataset)) delete status.dataset[key];
  status.dataset.state = 'running';
  status.textContent = `Checking the last ${n} rounds in this browser: reading the seed batches…`;
  cancel.hidden = false;
  try {
    const { report, rounds, signaturesChecked } = await judgeAll(n, { signal: controller.signal, status });
    showCounts(report, signaturesChecked);
    showFailures(report);
    showStats(report);
    showGames(report.games);
    showCharts(rounds, report);
  } catch (error) {
    if (controller.signal.aborted) {
      if (running !== controller) return;
      status.dataset.state = 'cancelled';
      status.textContent = `Cancelled after ${status.dataset.checked ?? 0} rounds: no verdict on the floor. Press Check to start again.`;
    } else {
      status.dataset.state = 'error';
      status.textContent = `The monitor could not finish: ${error.message}. Press Check to try again.`;
    }
  } finally {
    if (running === controller) {
      running = null;
      cancel.hidden = true;
    }
  }
}

/**
 * Wires the form and the Cancel button, and runs once: the page loads this module (with the
 * floor's audit and the charts) when the section comes (nearly) into view.
 */
export function startMonitor() {
  const count = () => Math.min(20000, Math.max(1, Number($('#monitor-n').value) || 1000));
  $('#monitor-form').addEventListener('submit', () => runMonitor(count()));
  $('#monitor-cancel').addEventListener('click', () => running?.abort());
  runMonitor(count());
}
