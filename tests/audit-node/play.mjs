// The player's Play signature (docs/proofs.md, "Play"), as every test player sends it: the typed
// data built by the signature module's playTypedData from the commit answer and the call, in the
// house's signing domain, signed with the player's viem account. Shared by the audit and the
// browser suites (each brings its viem); the signature module comes from the checkout.
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const root = new URL('../..', import.meta.url).pathname;
const proofs = createRequire(import.meta.url)(process.env.ARCADE_PROOFS ?? join(root, 'proofs-wasm', 'pkg-node', 'arcade_proofs.js'));

/** The receipts' name of each game's endpoint. */
const GAMES = { flip: 'coinflip', dice: 'dice', roulette: 'roulette', limbo: 'limbo' };

/** The Play's params of a call body: limbo signs its target in hundredths, as its receipt shows it. */
const playParams = (game, { target, ...rest }) =>
  game === 'limbo' ? { ...rest, target_hundredths: Math.round(Number(target) * 100) } : target === undefined ? rest : { ...rest, target };

/**
 * A client seed the house cannot know before the commit: 16 fresh random bytes, never reused
 * (a seed it saw before lets it hand out only indices that lose against it: docs/proofs.md).
 */
export const freshClientSeed = () => randomBytes(16).toString('hex');

/** The house's signing domain, as the manifest at `baseUrl` publishes it. */
export async function signingDomain(baseUrl) {
  const manifest = await (await fetch(`${baseUrl}/api/arcade/manifest`)).json();
  return manifest.signing_domain;
}

/**
 * `body` (a game call: round_id, client_seed, wager and the call's own fields) with its
 * `play_signature`: `account` signs the Play of `commit` (the commit answer it was shown) and
 * exactly this call. `game`: the endpoint's name (flip, dice, roulette) or the receipts'.
 */
export async function signedCall(account, { commit, domain, game, body }) {
  const { round_id: roundId, client_seed: clientSeed, wager, ...params } = body;
  const call = { round_id: roundId, address: commit.address, commitment: commit.commitment, game: GAMES[game] ?? game, client_seed: clientSeed, wager, params: playParams(GAMES[game] ?? game, params) };
  const typed = JSON.parse(proofs.playTypedData(JSON.stringify(call), JSON.stringify(domain)));
  return { ...body, play_signature: await account.signTypedData(typed) };
}
