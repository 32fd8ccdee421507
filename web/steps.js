// How a round is checked, step by step, from a receipt and the wasm core's report. Shared by the
// verifier page and the embeddable <arcade-verifier> element. Plain data out; no DOM here.

/** The outcome mapping of fairness v1, in words and numbers. */
function mapping(game, u0) {
  const u = BigInt(u0);
  if (game === 'coinflip') {
    const heads = u >= 2n ** 31n;
    return `u0 = ${u0} ${heads ? '≥' : '<'} 2^31 = 2147483648 → ${heads ? 'heads' : 'tails'}`;
  }
  if (game === 'dice') {
    const hundredths = (u * 10001n) >> 32n;
    return `(u0 × 10001) >> 32 = ${hundredths} → roll ${(Number(hundredths) / 100).toFixed(2)}`;
  }
  const pocket = (u * 37n) >> 32n;
  return `(u0 × 37) >> 32 = ${pocket} → pocket ${pocket}`;
}

/** `{verdict: "pass"|"fail", reason, steps: [{title, detail, ok}]}` for a receipt and its report. */
export function explain(receipt, report) {
  const t = report.trace;
  const ret = t.exact_return;
  const steps = [
    {
      title: 'Commitment',
      detail: `SHA-256(server_seed) = ${report.derived.commitment}\ncommitted before the round:  ${receipt.commitment}`,
      ok: report.checks.commitment,
    },
    {
      title: 'HMAC-SHA256',
      detail: `key = server_seed = ${t.hmac_key}\nmessage = client_seed:nonce:0 = ${t.hmac_message}\ndigest (block 0) = ${t.block0}`,
      ok: true,
    },
    {
      title: 'Numbers from the digest',
      detail: `u0 = bytes 0..4 = 0x${t.block0.slice(0, 8)} = ${t.u0}\nu1 = bytes 4..8 = 0x${t.block0.slice(8, 16)} = ${t.u1}`,
      ok: true,
    },
    {
      title: 'Outcome',
      detail: `${mapping(receipt.game, t.u0)}\nderived ${JSON.stringify(report.derived.result)}; receipt says ${JSON.stringify(receipt.result)}`,
      ok: report.checks.outcome,
    },
    {
      title: 'Payout',
      detail: report.derived.won
        ? `a win returns exactly ${ret.numerator}/${ret.denominator} = ${ret.floor} + ${ret.remainder}/${ret.denominator} chips;\n` +
          `the fraction is paid as one chip iff u1 × ${ret.denominator} < ${ret.remainder} × 2^32: ${ret.bonus_chip ? 'yes' : 'no'}\n` +
          `derived payout ${report.derived.payout}; receipt says ${receipt.payout}`
        : `a loss pays 0; receipt says ${receipt.payout}`,
      ok: report.checks.payout,
    },
  ];
  const failed = report.mismatches.map((m) => `${m.field}: derived ${m.derived}, receipt says ${m.claimed}`);
  return report.verified
    ? { verdict: 'pass', reason: 'The seed matches its commitment and the outcome and payout re-derive.', steps }
    : { verdict: 'fail', reason: `Does not re-derive: ${failed.join('; ')}`, steps };
}

/** An error thrown by the core (with its `code`), as a failed verdict. */
export function refused(error) {
  return { verdict: 'fail', reason: `${error.code ?? 'error'}: ${error.message}`, steps: [] };
}
