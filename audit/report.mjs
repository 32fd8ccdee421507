// The audit's summary as text a person reads at a glance (the --json output is the same object).
const pct = (x) => (x === null ? '—' : `${(100 * x).toFixed(3)}%`);
const p = (x) => (x === null ? '—' : x < 0.0001 ? x.toExponential(2) : x.toFixed(4));

function gameLines(games) {
  const lines = ['', 'game       rounds  (house agents)   wagered   paid out   return to player   expected (95% interval)'];
  for (const [game, s] of Object.entries(games)) {
    const interval = s.interval ? `${pct(s.expected_return)} (${pct(s.interval[0])} – ${pct(s.interval[1])})` : '—';
    const flag = s.within_interval === false ? '  outside the 95% interval' : '';
    lines.push(`${game.padEnd(10)} ${String(s.rounds).padStart(6)}  (${String(s.house_agent_rounds).padStart(5)})     ${String(s.wagered).padStart(9)}  ${String(s.paid_out).padStart(9)}   ${pct(s.realized_return).padStart(16)}   ${interval}${flag}`);
  }
  return lines;
}

/** The summary as lines of text. */
export function formatReport(report) {
  const lines = [
    `arcade audit of ${report.base_url} (signer ${report.signer ?? 'not published'})`,
    `rounds audited: ${report.rounds}   signed and verified: ${report.verified}   unsigned (before signing began): ${report.unsigned}   failed: ${report.failed}`,
    `seed batches: ${report.batches.length} (${report.batches.filter((b) => b.ok).length} hold)`,
    ...gameLines(report.games),
    '',
    `dice rolls, 100 bins: chi-square ${report.dice_rolls.statistic?.toFixed(2) ?? '—'} (${report.dice_rolls.df} df), p = ${p(report.dice_rolls.p_value)}`,
    `roulette pockets, 37 bins: chi-square ${report.roulette_pockets.statistic?.toFixed(2) ?? '—'} (${report.roulette_pockets.df} df), p = ${p(report.roulette_pockets.p_value)}`,
  ];
  if (report.failures.length > 0) {
    lines.push('', `FAILURES: ${report.failures.length}${report.failures.length > 20 ? ' (first 20)' : ''}`);
    for (const f of report.failures.slice(0, 20)) {
      const where = f.bet_id != null ? `bet ${f.bet_id}`
        : f.batch_id != null ? `batch ${f.batch_id}${f.index != null ? ` index ${f.index}` : ''}` : 'arcade';
      lines.push(`  ${where}: ${f.why}`);
    }
  } else {
    lines.push('', 'no failures: every round re-derives and every proof holds');
  }
  return lines.join('\n');
}
