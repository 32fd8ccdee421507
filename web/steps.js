// How a round is checked, step by step, and each game as the page knows it (PAGE_GAMES): the re-derivation from the wasm core's report, then the
// house's proofs and the player's Play signature from the verdict (audit/verdicts.mjs). Shared by the verifier page and the
// embeddable <arcade-verifier> element. Plain data out; no DOM here.

/**
 * Each game as the page knows it, the page's one per-game table: the outcome mapping of
 * fairness v1 in words and numbers (for the steps), and the by-hand form's hint and params from
 * its two fields (a call and an extra one). A game not here is refused by name.
 */
export const PAGE_GAMES = {
  coinflip: {
    mapping: (u, u0) => {
      const heads = u >= 2n ** 31n;
      return `u0 = ${u0} ${heads ? '≥' : '<'} 2^31 = 2147483648 → ${heads ? 'heads' : 'tails'}`;
    },
    hint: 'call: heads or tails',
    params: (call) => ({ call }),
  },
  dice: {
    mapping: (u) => {
      const hundredths = (u * 10001n) >> 32n;
      return `(u0 × 10001) >> 32 = ${hundredths} → roll ${(Number(hundredths) / 100).toFixed(2)}`;
    },
    hint: 'call: target 1-99; extra: under (default) or over',
    params: (call, extra) => ({ target: Number(call), direction: extra || 'under' }),
  },
  roulette: {
    mapping: (u) => {
      const pocket = (u * 37n) >> 32n;
      return `(u0 × 37) >> 32 = ${pocket} → pocket ${pocket}`;
    },
    hint: 'call: a bet (straight, red, black, odd, even, low, high, dozen1-3, column1-3); extra: the number of a straight bet',
    params: (call, extra) => ({ bet: call, number: extra === '' ? null : Number(extra) }),
  },
  limbo: {
    mapping: (u) => {
      const scale = 99n * 2n ** 32n;
      const raw = u === 0n ? null : scale / u;
      const result = raw === null ? 100000000n : raw > 100000000n ? 100000000n : raw < 100n ? 100n : raw;
      const shown = `${result / 100n}.${String(result % 100n).padStart(2, '0')}`;
      const how = raw === null ? 'u0 = 0 draws the cap' : `floor(99 × 2^32 / u0) = ${raw}, kept within 100 ..= 100000000`;
      return `${how} → result ${result} hundredths → ${shown}x`;
    },
    hint: 'call: the target multiplier, 1.01 to 1000000.00',
    // As the server reads a target: digits, then at most two decimals; anything else derives nothing.
    params: (call) => {
      const m = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(call);
      return { target_hundredths: m ? Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0')) : null };
    },
  },
};

/** The mapping of `game`; another game's outcome is not explained as one of these. */
function mapping(game, u0) {
  if (!Object.hasOwn(PAGE_GAMES, game)) return `no outcome mapping on this page for the unknown game ${JSON.stringify(game)}`;
  return PAGE_GAMES[game].mapping(BigInt(u0), u0);
}

const state = (ok) => (ok ? 'ok' : 'fail');

/** The re-derivation's steps from the core's report (and the verdict's nonce check). */
function derivation(receipt, report, verdict) {
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
      detail: `${mapping(receipt.game, t.u0)}\nderived ${JSON.stringify(report.derived.result)}; receipt says ${JSON.stringify(receipt.result)}`,
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

/** Every step of a verdict (`receipt` the receipt judged, null when none came). */
export function stepsOf(receipt, verdict) {
  const steps = receipt && verdict.report ? derivation(receipt, verdict.report, verdict) : [];
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
