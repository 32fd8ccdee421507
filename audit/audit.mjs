#!/usr/bin/env node
// arcade-audit <base_url> [--limit N] [--signer 0x…] [--marks S,H] [--strict-stats] [--json]
//
// Audits an arcade's whole floor (or its last N rounds) from the outside: every receipt of the
// feed re-derived by the fairness core, its signatures checked against the signer (pinned with
// --signer, else the one the manifest publishes), its seed shown in a signed seed batch and
// compared with the batch's row (one row per round), its nonce 0, its play's signature by its
// own player checked, a client seed its address played before held unproven, every
// settled bet of every batch found in the feed, the feed's paging strictly advancing, and the
// realized return to player set beside the exact expectation for exactly the bets made, with
// the roll and pocket histograms tested.
// Exit 0: every check holds and the statistics are in band; 1: a check failed (listed, each
// naming its check), or a manifest naming another signer than --signer; 2: usage or network
// error; 3: every check holds but a statistic is out of band (1 with --strict-stats); 4: every
// check holds, but some rounds are "consistent, not proven": no house proof (below the signed
// mark), no Play signature of their player (only the house vouches for their commitments), or
// a client seed their address played before (the house knew it when it committed).
// --marks pins the signed marks seen before (signed_from,house_agent_signed_from): marks that
// moved are a failure.
import { auditFloor } from './floor.mjs';
import { loadModules } from './modules.mjs';
import { formatReport } from './report.mjs';
import { isAddress } from './trust.mjs';

const USAGE = 'usage: arcade-audit <base_url> [--limit N] [--signer 0x…] [--marks S,H] [--strict-stats] [--json]';
const EXIT = { ok: 0, failed: 1, usage: 2, stats: 3, unproven: 4 };

const usage = (message) => Object.assign(new Error(message), { usage: true });

function parseArgs(argv) {
  const args = { baseUrl: null, limit: null, signer: null, marks: null, strictStats: false, json: false };
  const value = (arg, i) => (arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : argv[i + 1]);
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const skip = arg.includes('=') ? 0 : 1;
    if (arg === '--json') args.json = true;
    else if (arg === '--strict-stats') args.strictStats = true;
    else if (arg === '--limit' || arg.startsWith('--limit=')) { args.limit = Number(value(arg, i)); i += skip; }
    else if (arg === '--signer' || arg.startsWith('--signer=')) { args.signer = value(arg, i) ?? ''; i += skip; }
    else if (arg === '--marks' || arg.startsWith('--marks=')) { args.marks = parseMarks(value(arg, i) ?? ''); i += skip; }
    else if (!arg.startsWith('-') && args.baseUrl === null) args.baseUrl = arg;
    else throw usage(`unexpected argument ${arg}`);
  }
  if (!args.baseUrl || !/^https?:\/\//.test(args.baseUrl)) throw usage('a base URL (http://… or https://…) is required');
  if (args.limit !== null && !(Number.isInteger(args.limit) && args.limit > 0)) throw usage('--limit takes a positive integer');
  if (args.signer !== null && !isAddress(args.signer)) throw usage('--signer takes an address (0x and 40 hex digits)');
  return args;
}

/** `--marks S,H`: the signed marks a reader saw before, `{signed_from, house_agent_signed_from}`. */
function parseMarks(text) {
  const parts = text.split(',').map(Number);
  if (parts.length !== 2 || !parts.every((n) => Number.isSafeInteger(n) && n > 0)) {
    throw usage('--marks takes two bet ids: signed_from,house_agent_signed_from');
  }
  return { signed_from: parts[0], house_agent_signed_from: parts[1] };
}

/** The exit code a report calls for. */
function exitCode(report, { strictStats = false } = {}) {
  if (report.failures_total > 0) return EXIT.failed;
  if (report.stats_problems.length > 0) return strictStats ? EXIT.failed : EXIT.stats;
  if (report.unsigned > 0) return EXIT.unproven;
  return EXIT.ok;
}

async function main() {
  let args;
  try {
    args = parseArgs(process.argv.slice(2));
    const report = await auditFloor({ baseUrl: args.baseUrl, modules: loadModules(), pin: { signer: args.signer, marks: args.marks }, limit: args.limit });
    console.log(args.json ? JSON.stringify(report, null, 2) : formatReport(report, args));
    process.exitCode = exitCode(report, args);
  } catch (error) {
    if (!error.usage && !error.network) throw error;
    console.error(`arcade-audit: ${error.message}`);
    if (error.usage) console.error(USAGE);
    process.exitCode = EXIT.usage;
  }
}

main().catch((error) => {
  console.error(`arcade-audit: ${error.stack ?? error}`);
  process.exitCode = EXIT.usage;
});
