// The lying cases, each a rewrite of the real arcade's answers (liar.mjs) and the verdict each
// verifier must give: the audit command, the fairness monitor, the page by bet id and the
// <arcade-verifier> element. A case that does not concern a verifier (the element verifying one
// honest bet while the feed repeats a page) must leave it passing that honest bet.
// `expect[verifier]`: `{verdict, checks}`; checks are the failed checks that must be named.
import { onPaths, renonced, reseeded, resign, resignReceipt, signed, stripped } from './liar.mjs';
import { reseedCases } from './reseeds.mjs';

export const VERIFIERS = ['audit', 'monitor', 'page', 'element'];

const DOMAIN_TYPE = [
  { name: 'name', type: 'string' },
  { name: 'version', type: 'string' },
  { name: 'chainId', type: 'uint256' },
];
const MARKS_TYPE = [
  { name: 'signed_from', type: 'uint256' },
  { name: 'house_agent_signed_from', type: 'uint256' },
];

/** The manifest's `signed_marks`, signed by `account` over `domain`. */
export async function signedMarks(account, domain, signedFrom, houseAgentSignedFrom) {
  const message = { signed_from: signedFrom, house_agent_signed_from: houseAgentSignedFrom };
  const typedData = { domain, types: { EIP712Domain: DOMAIN_TYPE, SignedMarks: MARKS_TYPE }, primaryType: 'SignedMarks', message };
  return { ...message, ...(await signed(account, typedData)) };
}

const pass = { verdict: 'pass', checks: [] };
const fail = (...checks) => ({ verdict: 'fail', checks });
const all = (expect) => Object.fromEntries(VERIFIERS.map((v) => [v, expect]));

/**
 * The first won round of `receipts` settled again at the first nonce (1, 2, …) at which it
 * loses, its Receipt signed again by `house`: `{bet, receipt}`.
 */
async function lostAtAnotherNonce(receipts, house, marks) {
  for (const won of receipts.filter((r) => r.payout > 0)) {
    for (let nonce = 1; nonce <= 64; nonce++) {
      const moved = renonced(won, nonce);
      if (moved.payout === 0) return { bet: won.bet_id, receipt: await resignReceipt(house, moved, marks) };
    }
  }
  throw new Error('no won round loses at another nonce');
}

/**
 * The cases over a played floor: `receipts` (the honest ones, in bet order), `manifest` (the
 * honest one), `house` (a viem account with the house's key), `attacker` (another key),
 * `puppet` (a key the house holds, posing as a player), `upstream` (the real arcade) and
 * `secret` (its seeds secret, which the house knows). Each: `{name, title, lie, expect, bet
 * (the bet the page and the element verify), only (the audit's only failed checks), player
 * (the address the page and the element are given as the player's), ...}`.
 */
export async function lyingCases({ receipts, manifest, house, attacker, puppet, upstream, secret }) {
  const n = receipts.length;
  const at = (f) => receipts[Math.floor(f * n)];
  const byBet = new Map(receipts.map((r) => [r.bet_id, r]));
  const honest = at(0.1).bet_id;
  const houseAgentFrom = manifest.signed_marks?.house_agent_signed_from ?? receipts.at(-1).bet_id + 1_000_000;

  // 1. Proofs stripped after the signed mark (rounds below it stripped too: "before signing").
  const mark = at(1 / 3).bet_id;
  const strippedBet = at(2 / 3).bet_id;
  const marks = await signedMarks(house, manifest.signing_domain, mark, houseAgentFrom);
  const strip = (r) => (r.bet_id < mark || r.bet_id === strippedBet ? stripped(r) : r);

  // 2. A seed picked afterwards: re-derived, re-signed by the house's own key.
  const reseededBet = at(0.5).bet_id;
  const reseededReceipt = await resignReceipt(house, reseeded(byBet.get(reseededBet)), manifest.signed_marks);
  const swapIn = (r) => (r.bet_id === reseededBet ? reseededReceipt : r);

  // 3. A repeated page: every page after the first answers the first again.
  let firstPage = null;

  // 9. Losses replaced by wins of the same game, under the losses' bet ids, re-signed.
  const swaps = new Map();
  for (const game of ['coinflip', 'dice', 'roulette']) {
    const losses = receipts.filter((r) => r.game === game && r.payout === 0);
    const wins = receipts.filter((r) => r.game === game && r.payout > 0);
    for (let i = 0; i < 1 && i < losses.length && i < wins.length; i++) swaps.set(losses[i].bet_id, wins[wins.length - 1 - i]);
  }
  const copies = new Map();
  for (const [loss, win] of swaps) copies.set(loss, await resignReceipt(house, { ...win, bet_id: loss }, manifest.signed_marks));

  const truncatedAt = at(0.5).bet_id;
  const missingBet = at(0.25).bet_id;
  const [askedA, answeredB] = [at(0.2).bet_id, at(0.3).bet_id];
  const [lateA, laterB] = [at(0.4).bet_id, at(0.45).bet_id];
  const page = (p, f) => ({ ...p, receipts: p.receipts.map(f) });
  // 10, 11. A seed picked after the client seed, proven by proofs the house signs again: only
  // the player's Play signature, naming the commitment they were shown, gives it away.
  const reseeds = await reseedCases({ receipts, manifest, house, puppet, upstream, secret });
  // 12. The nonce picked after the client seed: nothing the player signed names it.
  const renonce = await lostAtAnotherNonce(receipts.slice(Math.floor(0.8 * n)), house, manifest.signed_marks);
  const swapNonce = (r) => (r.bet_id === renonce.bet ? renonce.receipt : r);
  // 14. A receipt's game renamed to one the core does not know: refused by name, never read as
  // another game's (nor counted in the statistics).
  const renamedBet = at(0.6).bet_id;
  const rename = (r) => (r.bet_id === renamedBet ? { ...r, game: 'plinko' } : r);
  return [
    {
      name: '1', title: 'proofs stripped from rounds after the signed mark', bet: strippedBet, below: at(0.1).bet_id,
      lie: { rewrite: onPaths({ manifest: (m) => ({ ...m, signed_marks: marks }), feed: (p) => page(p, strip), verify: (r) => strip(r) }) },
      expect: all(fail('proofs')), victims: [strippedBet],
    },
    {
      name: '2', title: 'a receipt whose seed differs from its batch row (re-signed by the house)', bet: reseededBet,
      lie: { rewrite: onPaths({ feed: (p) => page(p, swapIn), verify: (r) => swapIn(r) }) },
      expect: { audit: fail('inclusion', 'batch_row'), monitor: fail('inclusion', 'batch_row'), page: fail('inclusion'), element: fail('inclusion') },
      victims: [reseededBet],
    },
    {
      name: '3', title: 'a repeated page', bet: honest,
      lie: {
        rewrite: onPaths({
          feed: (p, url) => {
            if (url.searchParams.get('after') === '0') firstPage = p;
            return firstPage && url.searchParams.get('after') !== '0' ? firstPage : p;
          },
        }),
      },
      expect: { audit: fail('feed_paging'), monitor: fail('feed_paging'), page: pass, element: pass },
    },
    {
      name: '4', title: 'a truncated feed', bet: honest,
      lie: {
        rewrite: onPaths({
          feed: (p) => {
            const kept = p.receipts.filter((r) => r.bet_id <= truncatedAt);
            return kept.length < p.receipts.length || p.receipts.length === 0 ? { receipts: kept, next_after: null } : p;
          },
        }),
      },
      expect: { audit: fail('feed_missing'), monitor: fail('feed_missing'), page: pass, element: pass },
    },
    {
      name: '5', title: 'a bet missing from the feed but settled in a batch', bet: missingBet,
      lie: { rewrite: onPaths({ feed: (p) => ({ ...p, receipts: p.receipts.filter((r) => r.bet_id !== missingBet) }) }) },
      expect: { audit: fail('feed_missing'), monitor: fail('feed_missing'), page: pass, element: pass }, victims: [missingBet],
    },
    {
      name: '6', title: 'the signer swapped in the manifest (everything the house signs re-signed by another key)', bet: honest,
      lie: {
        rewrite: onPaths({
          manifest: async (m) => resign(attacker, { ...m, signer: attacker.address }),
          anyJson: (answer) => resign(attacker, answer),
        }),
      },
      expect: all(fail('signer')), attacker: attacker.address,
    },
    {
      name: '7', title: 'an answer for another bet id', bet: askedA, answered: answeredB,
      lie: { rewrite: onPaths({ verify: (r, id) => (id === askedA ? byBet.get(answeredB) : r) }) },
      expect: { audit: pass, monitor: pass, page: fail('bet_id'), element: fail('bet_id') },
    },
    {
      name: '8', title: 'a late answer for an earlier bet id', bet: laterB, earlier: lateA,
      lie: {
        rewrite: onPaths({ verify: (r, id) => (id === laterB ? { ...r, payout: r.payout + 1, profit: r.profit + 1 } : r) }),
        delay: (url) => (url.pathname === `/api/arcade/verify/${lateA}` ? 2000 : 0),
      },
      expect: { audit: pass, monitor: pass, page: fail('rederive'), element: fail('rederive') },
    },
    {
      name: '9', title: 'a rigged RTP held inside its band by repetition (wins repeated under hidden losses\' bet ids, re-signed)', bet: honest,
      lie: { rewrite: onPaths({ feed: (p) => page(p, (r) => copies.get(r.bet_id) ?? r) }) },
      expect: { audit: fail('batch_row', 'feed_missing'), monitor: fail('batch_row', 'feed_missing'), page: pass, element: pass },
      victims: [...copies.keys()], inBand: true,
    },
    {
      name: '9a', title: 'a rigged RTP held inside its band by repetition (wins repeated as they are)', bet: honest,
      lie: { rewrite: onPaths({ feed: (p) => page(p, (r) => swaps.get(r.bet_id) ?? r) }) },
      expect: { audit: fail('feed_paging'), monitor: fail('feed_paging'), page: pass, element: pass }, inBand: true,
    },
    ...reseeds,
    {
      name: '12', title: 'the nonce changed after the client seed (the house re-signs the Receipt, keeps seed, commitment and the player\'s Play)', bet: renonce.bet,
      lie: { rewrite: onPaths({ feed: (p) => page(p, swapNonce), verify: (r) => swapNonce(r) }) },
      expect: all(fail('nonce')), victims: [renonce.bet], only: ['nonce'],
    },
    {
      name: '14', title: 'a receipt whose game is renamed to one no verifier knows (plinko)', bet: renamedBet,
      lie: { rewrite: onPaths({ feed: (p) => page(p, rename), verify: (r) => rename(r) }) },
      expect: all(fail('game')), victims: [renamedBet],
    },
  ];
}

/** A verdict in a table cell: `pass`, `consistent, not proven`, `fail [check, …]`. */
export function cell({ verdict, checks = [] }) {
  return verdict === 'fail' ? `fail [${[...new Set(checks)].join(', ')}]` : verdict;
}

/** Whether an observed `{verdict, checks}` is what `expected` calls for. */
export function matches(observed, expected) {
  return observed.verdict === expected.verdict && expected.checks.every((c) => observed.checks.includes(c));
}
