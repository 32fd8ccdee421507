// The audit's summary as text a person reads at a glance (the --json output is the same object).
import { HISTOGRAMS } from './stats.mjs';

const pct = (x) => (x === null ? '—' : `${(100 * x).toFixed(3)}%`);
const p = (x) => (x === null ? '—' : x < 0.0001 ? x.toExponential(2) : x.toFixed(4));

function gameLines(games) {
  const lines = ['', 'game       rounds  (house agents)   wagered   paid out   return to player   expected (95% interval)'];
  for (const [game, s] of Object.entries(games)) {
    const interval = s.interval ? `${pct(s.expected_return)} (${pct(s.interval[0])} – ${pct(s.interval[1])})` : '—';
    const flag = s.in_band === false ? '  OUT OF BAND (p < 0.001)' : s.within_interval === false ? '  outside the 95% interval' : '';
    lines.push(`${game.padEnd(10)} ${String(s.rounds).padStart(6)}  (${String(s.house_agent_rounds).padStart(5)})     ${String(s.wagered).padStart(9)}  ${String(s.paid_out).padStart(9)}   ${pct(s.realized_return).padStart(16)}   ${interval}${flag}`);
  }
  return lines;
}

function where(f) {
  if (f.bet_id != null) return `bet ${f.bet_id}`;
  if (f.batch_id != null) return `batch ${f.batch_id}${f.index != null ? ` index ${f.index}` : ''}`;
  return 'arcade';
}

/** The rounds not proven, by kind: `{house, plays, reused, other}`. */
function unprovenKinds(report) {
  const house = report.before_signing ?? 0;
  const plays = report.unsigned_plays ?? 0;
  const reused = report.reused_client_seeds ?? 0;
  return { house, plays, reused, other: report.unsigned - house - plays - reused };
}

/** Bet ids in a line: the first ten, and how many more. */
const someBets = (ids, total) => `${ids.slice(0, 10).join(', ')}${total > 10 ? `, … ${total - 10} more` : ''}`;

/** Why the rounds not proven are not, by kind. */
function unprovenWhy(report) {
  const { house, plays, reused, other } = unprovenKinds(report);
  const parts = [];
  if (house > 0) parts.push(`${house} round(s) carry no house proof (below the signed mark)`);
  if (plays > 0) parts.push(`${plays} round(s) carry no Play signed by their player (only the house says which commitment the player was shown)`);
  if (reused > 0) parts.push(`${reused} round(s) reuse a client seed their address used before (bets: ${someBets(report.reused_client_seed_bets, reused)}), so the house knew the seed before it committed and could order its seeds`);
  if (other > 0) parts.push(`${other} round(s) could not be proven here (see --json)`);
  return parts.join(', and ');
}

function failureLines(report) {
  if (report.failures_total === 0 && report.unsigned > 0) {
    return ['', `no failures, but ${unprovenWhy(report)}: they re-derive, and nothing the house cannot redo proves it committed to their seeds before the client seed was known (exit 4)`];
  }
  if (report.failures_total === 0) return ['', 'no failures: every round re-derives and every proof holds'];
  const shown = report.failures.slice(0, 20);
  const lines = ['', `FAILURES: ${report.failures_total}${report.failures_total > shown.length ? ` (first ${shown.length})` : ''}` +
    ` — checks failed: ${Object.entries(report.failed_checks).map(([c, n]) => `${c} ${n}`).join(', ')}`];
  for (const f of shown) lines.push(`  ${where(f)} [${f.check}]: ${f.why}`);
  return lines;
}

function statsLines(report, { strictStats = false } = {}) {
  if (report.stats_problems.length === 0) return [];
  return ['', `STATISTICS OUT OF BAND${strictStats ? ' (a failure: --strict-stats)' : ''}:`, ...report.stats_problems.map((s) => `  ${s}`)];
}

/** The not-proven count by kind, in words. */
function unprovenCounts(report) {
  const { house, plays, reused, other } = unprovenKinds(report);
  return `before signing began: ${house}, play not signed by its player: ${plays}, client seed reused: ${reused}${other > 0 ? `, other: ${other}` : ''}`;
}

/** The summary as lines of text. */
export function formatReport(report, options = {}) {
  const marks = report.signed_marks;
  const signer = report.signer_pinned
    ? `signer ${report.signer} (pinned; the manifest names ${report.manifest_signer ?? 'none'})`
    : `signer ${report.signer ?? 'not published'} (from the manifest, not pinned: --signer pins it)`;
  const lines = [
    `arcade audit of ${report.base_url}: ${signer}`,
    `signed marks: ${marks.published ? `every bet from ${marks.signed_from} on is signed (house_agent signed from ${marks.house_agent_signed_from})` : 'none published: every bet must carry its proofs'}`,
    `rounds audited: ${report.rounds} (bets ${report.window.after + 1}–${report.window.until})   pass: ${report.verified}   ` +
      `consistent, not proven: ${report.unsigned} (${unprovenCounts(report)})   failed: ${report.failed}`,
    `seed batches: ${report.batches.length} (${report.batches.filter((b) => b.ok).length} hold)`,
    ...gameLines(report.games),
    '',
    ...HISTOGRAMS.map(({ name, title }) => `${title}: chi-square ${report[name].statistic?.toFixed(2) ?? '—'} (${report[name].df} df), p = ${p(report[name].p_value)}`),
    ...statsLines(report, options),
    ...failureLines(report),
  ];
  // A signer that is not the pinned one, or marks that do not hold, go first and loud.
  const trust = report.failures.filter((f) => f.check === 'signer' || f.check === 'marks');
  if (trust.length > 0) lines.unshift(...trust.map((f) => `!!! ${f.check.toUpperCase()}: ${f.why}`), '');
  return lines.join('\n');
}
