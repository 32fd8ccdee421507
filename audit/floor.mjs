// The floor, audited from the outside: the manifest read under the reader's pins, every
// published seed batch judged and its rows kept, the feed read up to the batches' settled mark
// (the largest settled bet id they list), every receipt judged (verdicts.mjs) and compared with
// its batch row, every settled bet of a batch found in the feed, every client seed an address
// plays again held unproven, and the statistics tallied as the rounds go by. Shared by the audit command (every batch, or the window of its last
// `--limit` rounds) and the page's fairness monitor (the recent batches and the last N rounds).
// Memory: the batch rows (no audit paths), each address's client seeds and the tallies; the
// feed is judged page by page.
import { judgeBatch, missingFromFeed, newRows, rowFailures, signedBatches } from './batches.mjs';
import { feedPages, fetchBatch, fetchBatchList, fetchLimits, fetchManifest } from './feed.mjs';
import { addToStats, newStats, statsOf, statsProblems } from './stats.mjs';
import { readTrust } from './trust.mjs';
import { isAddress } from './trust.mjs';
import { FAIL, NOT_PROVEN, PASS, isUnsigned, judgeRound } from './verdicts.mjs';

/** Failures kept in the report (all are counted); the same for the bet ids of reused seeds. */
const KEPT_FAILURES = 1000;

/** Reads one batch again or for the first time, judging it and keeping its rows. */
async function readBatch(floor, batchId) {
  const batch = await fetchBatch(floor.baseUrl, batchId, floor.io);
  const { summary, failures } = judgeBatch(floor.context, floor.context.batches.get(batchId), batch, floor.rows);
  floor.summaries.set(batchId, summary);
  floor.batchFailures.set(batchId, failures);
  return summary;
}

/**
 * The batches to read first: all of them, or (`recent`) every batch still being used and the
 * newest full ones until they list more than `limit` settled rounds.
 */
async function readBatches(floor, list, { recent, limit }) {
  if (!recent) {
    for (const { batch_id: id } of list) await readBatch(floor, id);
    return;
  }
  let settled = 0;
  for (const { batch_id: id, used, size } of list) if (used < size) settled += (await readBatch(floor, id)).settled;
  for (const { batch_id: id, used, size } of [...list].reverse()) {
    if (settled > (limit ?? Infinity)) break;
    if (used >= size) settled += (await readBatch(floor, id)).settled;
  }
}

/** The bet ids to read: (after, until]. `until` is the settled mark; `after` leaves the last `limit`. */
function window(floor, limit) {
  const ids = [...floor.rows.byBet.keys()];
  const mark = ids.reduce((a, b) => Math.max(a, b), 0);
  // Bets below the signed mark were never in a batch: read at least up to it.
  const until = Math.max(mark, floor.context.trust.marks.signed_from - 1);
  if (limit === null) return { after: 0, until };
  ids.sort((a, b) => a - b);
  return { after: ids.length > limit ? ids[ids.length - limit - 1] : 0, until };
}

/** Batches a page names that were not read, or whose row was still open when read: read now. */
async function refresh(floor, page) {
  const again = new Set();
  for (const receipt of page) {
    const claim = receipt.proofs?.batch;
    if (!claim || !floor.context.batches.has(claim.batch_id)) continue;
    const rows = floor.rows.byBatch.get(claim.batch_id);
    if (!rows || !rows[claim.index] || rows[claim.index].state === 'open') again.add(claim.batch_id);
  }
  for (const id of again) await readBatch(floor, id);
}

function keep(floor, failure) {
  floor.failuresTotal += 1;
  floor.checks[failure.check] = (floor.checks[failure.check] ?? 0) + 1;
  if (floor.failures.length < KEPT_FAILURES) floor.failures.push(failure);
}

/**
 * Signing never stops once it began: a bet without proofs after one that carried them fails,
 * whatever marks the house signs (a house that raised its mark to excuse stripped proofs).
 */
function signingStopped(floor, receipt) {
  const mark = floor.context.trust.marks;
  if (mark.published && !isUnsigned(receipt.proofs) && receipt.bet_id < mark.signed_from) {
    // The floor contradicts the marks: signing began before the bet they say it began at.
    return [{ check: 'marks', why: `bet ${receipt.bet_id} carries proofs, yet the signed marks say signing began at bet ${mark.signed_from}` }];
  }
  if (floor.lastSigned === null || !isUnsigned(receipt.proofs)) return [];
  return [{ check: 'proofs', why: `bet ${receipt.bet_id} carries no proofs, yet bet ${floor.lastSigned} before it did: once signing began, every bet carries them` }];
}

/**
 * Why the round proves nothing though every proof may hold: its address played its client seed
 * in an earlier bet of the feed read, so the house knew the seed before this round's commit and
 * could hand the round an index of its batch whose seed loses against it (null: a first use).
 */
function reusedSeed(floor, receipt) {
  if (typeof receipt.client_seed !== 'string' || !isAddress(receipt.address)) return null;
  const key = `${receipt.address.toLowerCase()}:${receipt.client_seed}`;
  const first = floor.seeds.get(key);
  if (first === undefined) {
    floor.seeds.set(key, receipt.bet_id);
    return null;
  }
  return `its client seed was played by ${receipt.address} before, in bet ${first}: the house knew it before this ` +
    'round\'s commit, so it could hand this round an index whose seed loses against it (the order it hands out its seeds is its own)';
}

/** Judges one page of the feed: each receipt's verdict, its row, the counts and tallies. */
function judgePage(floor, page, onRound) {
  for (const receipt of page) {
    const also = [...rowFailures(floor.rows, receipt), ...signingStopped(floor, receipt)];
    const verdict = judgeRound(floor.context, receipt, { trustProblems: false, also, doubt: reusedSeed(floor, receipt) });
    floor.counts[verdict.verdict] += 1;
    if (verdict.unsigned_play) floor.unsignedPlays += 1;
    if (verdict.doubted) floor.reused.push(receipt.bet_id);
    if (verdict.verdict === NOT_PROVEN && verdict.unsigned) floor.beforeSigning += 1;
    if (!verdict.unsigned) floor.signed += 1;
    floor.first ??= receipt.bet_id;
    if (!verdict.unsigned) floor.lastSigned = receipt.bet_id;
    for (const f of verdict.failures) keep(floor, { bet_id: receipt.bet_id, ...f });
    if (verdict.round) addToStats(floor.stats, verdict.round);
    onRound?.(verdict, receipt);
  }
}

/**
 * Audits the floor at `baseUrl`. `modules`: `{wasm, proofs}`; `pin`: `{signer, marks}` the
 * reader pins; `limit`: the last N settled rounds (null: all); `recent`: read only the recent
 * batches (the monitor); `onRound(verdict, receipt)`: called for every round judged;
 * `onWindow({after, until})`: called once the bet ids to read, (after, until], are known;
 * `signal` aborts the audit (its reads and their waits); `onWait({seconds, path})` hears of each
 * wait the arcade's rate limit asks for. Returns the report (`--json` prints it as is).
 */
export async function auditFloor({ baseUrl, modules, pin = {}, limit = null, recent = false, page, onRound, onWindow, signal, onWait }) {
  const io = { signal, onWait };
  const trust = readTrust(modules.proofs, await fetchManifest(baseUrl, io), pin);
  const list = await fetchBatchList(baseUrl, io);
  const limits = await fetchLimits(baseUrl, io);
  const context = { ...modules, trust, batches: signedBatches({ ...modules, trust }, list) };
  const floor = {
    baseUrl, io, context, rows: newRows(), summaries: new Map(), batchFailures: new Map(),
    failures: [], failuresTotal: 0, checks: {}, counts: { [PASS]: 0, [NOT_PROVEN]: 0, [FAIL]: 0 },
    signed: 0, unsignedPlays: 0, beforeSigning: 0, reused: [], seeds: new Map(), first: null, lastSigned: null, stats: newStats(limits),
  };
  for (const problem of trust.problems) keep(floor, { bet_id: null, ...problem });
  await readBatches(floor, Array.isArray(list) ? list : [], { recent, limit });
  const { after, until } = window(floor, limit);
  onWindow?.({ after, until });
  const feed = {};
  for await (const taken of feedPages(baseUrl, { after, until, page, state: feed, options: io })) {
    await refresh(floor, taken);
    judgePage(floor, taken, onRound);
  }
  for (const problem of feed.problems) keep(floor, problem);
  for (const failures of floor.batchFailures.values()) for (const f of failures) keep(floor, f);
  for (const missing of missingFromFeed(floor.rows, { after, mark: until })) keep(floor, missing);
  return reportOf(floor, { baseUrl, after, until, last: feed.last });
}

function reportOf(floor, { baseUrl, after, until, last }) {
  const { trust } = floor.context;
  const stats = statsOf(floor.stats);
  const problems = statsProblems(stats);
  if (floor.stats.limits === null) problems.push('the arcade publishes no limits (/api/arcade/games `limits`): no round was held to them');
  const rounds = floor.counts[PASS] + floor.counts[NOT_PROVEN] + floor.counts[FAIL];
  return {
    base_url: baseUrl,
    verdict: floor.failuresTotal > 0 ? FAIL : problems.length > 0 ? 'stats out of band' : floor.counts[NOT_PROVEN] > 0 ? NOT_PROVEN : PASS,
    signer: trust.signer,
    signer_pinned: trust.pinned,
    manifest_signer: trust.published_signer,
    signing_domain: trust.domain,
    signed_marks: { signed_from: trust.marks.signed_from, house_agent_signed_from: trust.marks.house_agent_signed_from, published: trust.marks.published },
    window: { after, until },
    first_bet_id: floor.first,
    last_bet_id: rounds > 0 ? last : null,
    rounds,
    signed: floor.signed,
    verified: floor.counts[PASS],
    // Every round "consistent, not proven"; of them, those without house proofs (before signing
    // began), those only the player's Play was missing from, and those whose client seed their
    // address played before (their bet ids, the first KEPT_FAILURES).
    unsigned: floor.counts[NOT_PROVEN],
    before_signing: floor.beforeSigning,
    unsigned_plays: floor.unsignedPlays,
    reused_client_seeds: floor.reused.length,
    reused_client_seed_bets: floor.reused.slice(0, KEPT_FAILURES),
    failed: floor.counts[FAIL],
    failures_total: floor.failuresTotal,
    failed_checks: floor.checks,
    failures: floor.failures,
    batches: [...floor.summaries.values()],
    stats_problems: problems,
    ...stats,
  };
}
