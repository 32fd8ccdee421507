// How a round is checked, step by step, and each game's by-hand form (PAGE_GAMES): the re-derivation from the wasm core's report (how u0 maps
// to the outcome in the core's words, from its description of the game), then the
// house's proofs and the player's Play signature from the verdict (audit/verdicts.mjs). Shared by the verifier page and the
// embeddable <arcade-verifier> element. Plain data out; no DOM here.

/**
 * Each game's by-hand form as the page knows it: the hint and the params from its two fields (a
 * call and an extra one, and the core's `gameDescriptions()`). Limbo's target is read by the
 * core's own pattern. A game not here is refused by name.
 */
export const PAGE_GAMES = {
  coinflip: {
    hint: 'call: heads or tails',
    params: (call) => ({ call }),
  },
  dice: {
    hint: 'call: target 1-99; extra: under (default) or over',
    params: (call, extra) => ({ target: Number(call), direction: extra || 'under' }),
  },
  roulette: {
    hint: 'call: a bet (straight, red, black, odd, even, low, high, dozen1-3, column1-3); extra: the number of a straight bet',
    params: (call, extra) => ({ bet: call, number: extra === '' ? null : Number(extra) }),
  },
  limbo: {
    hint: 'call: the target multiplier, 1.01 to 1000000.00',
    // A target the core reads (its pattern: digits, at most two decimals), in hundredths;
    // anything else derives nothing.
    params: (call, extra, descriptions) => {
      if (!limboTargetPattern(descriptions).test(call)) return { target_hundredths: null };
      const [whole, cents = ''] = call.split('.');
      return { target_hundredths: Number(whole) * 100 + Number(cents.padEnd(2, '0')) };
    },
  },
};

/** The pattern the core reads a limbo target by, from its description of the game. */
function limboTargetPattern(descriptions) {
  const target = descriptions.find((d) => d.name === 'limbo').call.find((f) => f.name === 'target');
  return new RegExp(target.pattern);
}

const state = (ok) => (ok ? 'ok' : 'fail');

/**
 * How u0 maps to the receipt's game's outcome: the core's words (`descriptions`:
 * gameDescriptions()) with the core's numbers filled in (u0, the number drawn, the result).
 */
function mapping(descriptions, receipt, report) {
  const described = descriptions.find((d) => d.name === receipt.game);
  if (!described) return `no outcome mapping for the unknown game ${JSON.stringify(receipt.game)}`;
  const values = { ...report.derived.result, u0: report.trace.u0, drawn: report.trace.drawn };
  return described.mapping.replace(/\{(\w+)\}/g, (whole, key) => (Object.hasOwn(values, key) ? String(values[key]) : whole));
}

/** The re-derivation's steps from the core's report (and the verdict's nonce check). */
function derivation(receipt, report, verdict, descriptions) {
  const t = report.trace;
  const ret = t.exact_return;
  const nonce = verdict.failures.find((f) => f.check === 'nonce');
  return [
    {
      title: 'Commitment',
      detail: `SHA-256(server_seed) = ${report.derived.commitment}\ncommitted before the round:  ${receipt.commitment}`,
      state: state(report.checks.commitment),
    },
    {
      title: 'HMAC-SHA256',
      detail: `key = server_seed = ${t.hmac_key}\nmessage = client_seed:nonce:0 = ${t.hmac_message}\ndigest (block 0) = ${t.block0}` +
        (nonce ? `\n${nonce.why}` : ''),
      state: nonce ? 'fail' : 'ok',
    },
    {
      title: 'Numbers from the digest',
      detail: `u0 = bytes 0..4 = 0x${t.block0.slice(0, 8)} = ${t.u0}\nu1 = bytes 4..8 = 0x${t.block0.slice(8, 16)} = ${t.u1}`,
      state: 'ok',
    },
    {
      title: 'Outcome',
      detail: `${mapping(descriptions, receipt, report)}\nderived ${JSON.stringify(report.derived.result)}; receipt says ${JSON.stringify(receipt.result)}`,
      state: state(report.checks.outcome),
    },
    {
      title: 'Payout',
      detail: report.derived.won
        ? `a win returns exactly ${ret.numerator}/${ret.denominator} = ${ret.floor} + ${ret.remainder}/${ret.denominator} chips;\n` +
          `the fraction is paid as one chip iff u1 × ${ret.denominator} < ${ret.remainder} × 2^32: ${ret.bonus_chip ? 'yes' : 'no'}\n` +
          `derived payout ${report.derived.payout}; receipt says ${receipt.payout}`
        : `a loss pays 0; receipt says ${receipt.payout}`,
      state: state(report.checks.payout),
    },
  ];
}

const SIGNATURE_CHECKS = ['signer', 'marks', 'proofs', 'commitment_signature', 'receipt_signature'];
const BATCH_CHECKS = ['batch', 'batch_signature', 'inclusion', 'batch_row'];
// The player's own evidence: their Play signature, and (when given) their address and commit answer.
const PLAY_CHECKS = ['play_signature', 'player', 'commit_answer', 'equivocation'];

/**
 * A proof step: failed when one of `checks` failed, held when every proof the receipt carries
 * holds (whatever else failed: a nonce, the player's address), skipped when nothing was proven.
 * The house's steps (`house`) held too when only the player's signature is missing.
 */
function proofStep(title, verdict, checks, passed, { house = true } = {}) {
  const failed = verdict.failures.filter((f) => checks.includes(f.check));
  if (failed.length > 0) return { title, detail: failed.map((f) => f.why).join('\n'), state: 'fail' };
  const held = verdict.verdict === 'pass' || verdict.proofs_hold || (house && verdict.unsigned_play);
  if (!held) return { title, detail: `not proven: ${verdict.unsigned ? 'the receipt carries no proofs' : verdict.reason}`, state: 'skip' };
  return { title, detail: passed, state: 'ok' };
}

/**
 * Every step of a verdict (`receipt` the receipt judged, null when none came; `descriptions` the
 * wasm core's gameDescriptions()).
 */
export function stepsOf(receipt, verdict, descriptions) {
  const steps = receipt && verdict.report ? derivation(receipt, verdict.report, verdict, descriptions) : [];
  if (!receipt) return steps;
  const batch = receipt.proofs?.batch;
  steps.push(
    proofStep('Signed by the house', verdict, SIGNATURE_CHECKS,
      `Commitment (at commit) and Receipt (at settlement) signed by ${verdict.signer}${verdict.signer_pinned ? ', the pinned signer' : ', the manifest\'s signer'}`),
    proofStep('Seed fixed in advance', verdict, BATCH_CHECKS,
      batch ? `commitment ${receipt.commitment} is leaf ${batch.index} of seed batch ${batch.batch_id} (${batch.size} seeds), whose root the same signer signed before play` : ''),
    proofStep('Signed by the player', verdict, PLAY_CHECKS,
      `the Play signed by ${receipt.address}, the round's owner${verdict.player ? ' (the address you gave)' : ''}, before the outcome existed: commitment ${receipt.commitment}, ` +
      `client seed ${JSON.stringify(receipt.client_seed)}, the call and wager ${receipt.wager}; no seed picked afterwards matches it`,
      { house: false }),
  );
  return steps;
}
