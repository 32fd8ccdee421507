#!/usr/bin/env node
// arcade-audit <base_url> [--limit N] [--json]
//
// Audits an arcade's whole floor (or its last N rounds) from the outside: every receipt of the
// feed re-derived by the fairness core, its signatures checked against the signer the manifest
// publishes, its seed shown in a signed seed batch, every batch index accounted for, and the
// realized return to player set beside the exact expectation for exactly the bets made.
// Exit 0: no failures; 1: failures (listed); 2: usage or network error.
import { judgeBatches, checkAgainstBatch } from './batches.mjs';
import { fetchBatches, fetchReceipts, fetchTrust, latestBetId } from './feed.mjs';
import { loadModules } from './modules.mjs';
import { formatReport } from './report.mjs';
import { isUnsigned, judgeReceipt } from './rounds.mjs';
import { fairnessStats } from './stats.mjs';

const USAGE = 'usage: arcade-audit <base_url> [--limit N] [--json]';

function parseArgs(argv) {
  const args = { baseUrl: null, limit: null, json: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--json') args.json = true;
    else if (arg === '--limit') args.limit = Number(argv[++i]);
    else if (arg.startsWith('--limit=')) args.limit = Number(arg.slice(8));
    else if (!arg.startsWith('-') && args.baseUrl === null) args.baseUrl = arg;
    else throw Object.assign(new Error(`unexpected argument ${arg}`), { usage: true });
  }
  if (!args.baseUrl || !/^https?:\/\//.test(args.baseUrl)) throw Object.assign(new Error('a base URL (http://… or https://…) is required'), { usage: true });
  if (args.limit !== null && !(Number.isInteger(args.limit) && args.limit > 0)) throw Object.assign(new Error('--limit takes a positive integer'), { usage: true });
  return args;
}

/** Reads everything, judges everything: the report object (`--json` prints it as is). */
async function audit({ baseUrl, limit }, modules = loadModules()) {
  const trust = await fetchTrust(baseUrl);
  const after = limit === null ? 0 : Math.max(0, (await latestBetId(baseUrl)) - limit);
  // The feed first, then the batches: every round the feed holds is settled in them.
  const receipts = await fetchReceipts(baseUrl, { after, limit });
  const batches = await fetchBatches(baseUrl);
  const batchesById = new Map(batches.map((b) => [b.batch_id, b]));
  const context = { ...modules, trust, batches: batchesById };

  const counts = { verified: 0, unsigned: 0, failed: 0 };
  const failures = [];
  const rounds = [];
  for (const receipt of receipts) {
    const judged = judgeReceipt(context, receipt);
    const mismatch = checkAgainstBatch(batchesById, receipt);
    if (mismatch) judged.failures.push(mismatch);
    const status = judged.failures.length > 0 ? 'failed' : judged.status;
    counts[status] += 1;
    for (const why of judged.failures) failures.push({ bet_id: receipt.bet_id, why });
    if (judged.round) rounds.push(judged.round);
  }
  const last = receipts.at(-1)?.bet_id ?? after;
  const byBet = new Map(receipts.map((r) => [r.bet_id, r]));
  const judgedBatches = judgeBatches(context, batches, { byBet, after, last });
  failures.push(...judgedBatches.failures);
  const signed = receipts.filter((r) => !isUnsigned(r.proofs)).length;
  if (!trust.signer && signed > 0) failures.unshift({ bet_id: null, why: 'the manifest publishes no signer, yet receipts are signed' });

  return {
    base_url: baseUrl,
    signer: trust.signer,
    signing_domain: trust.domain,
    first_bet_id: receipts[0]?.bet_id ?? null,
    last_bet_id: receipts.at(-1)?.bet_id ?? null,
    rounds: receipts.length,
    signed,
    ...counts,
    failures,
    batches: judgedBatches.batches,
    ...fairnessStats(rounds),
  };
}

async function main() {
  let args;
  try {
    args = parseArgs(process.argv.slice(2));
    const report = await audit(args);
    console.log(args.json ? JSON.stringify(report, null, 2) : formatReport(report));
    process.exitCode = report.failures.length === 0 ? 0 : 1;
  } catch (error) {
    if (!error.usage && !error.network) throw error;
    console.error(`arcade-audit: ${error.message}`);
    if (error.usage) console.error(USAGE);
    process.exitCode = 2;
  }
}

main().catch((error) => {
  console.error(`arcade-audit: ${error.stack ?? error}`);
  process.exitCode = 2;
});
