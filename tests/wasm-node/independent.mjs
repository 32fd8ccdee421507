// A second implementation of fairness v1, written from the specification with node:crypto and
// BigInt only, so the wasm module is checked against something that does not share its code.
import { createHash, createHmac } from "node:crypto";

const RED = new Set([1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36]);
const COVERS = {
  straight: (p, n) => p === n,
  red: (p) => RED.has(p),
  black: (p) => p > 0 && !RED.has(p),
  odd: (p) => p > 0 && p % 2 === 1,
  even: (p) => p > 0 && p % 2 === 0,
  low: (p) => p >= 1 && p <= 18,
  high: (p) => p >= 19,
  dozen1: (p) => p >= 1 && p <= 12,
  dozen2: (p) => p >= 13 && p <= 24,
  dozen3: (p) => p >= 25,
  column1: (p) => p > 0 && p % 3 === 1,
  column2: (p) => p > 0 && p % 3 === 2,
  column3: (p) => p > 0 && p % 3 === 0,
};
const MULTIPLE = { straight: 36n, red: 2n, black: 2n, odd: 2n, even: 2n, low: 2n, high: 2n };

export function sha256Hex(text) {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

const LIMBO_SCALE = 99n * 2n ** 32n;

/** Limbo (the addendum): the result in hundredths, the win, `W` and the return per chip. */
export function limboDraw(u, t) {
  let result = u === 0n ? 100000000n : LIMBO_SCALE / u;
  if (result > 100000000n) result = 100000000n;
  if (result < 100n) result = 100n;
  const w = LIMBO_SCALE / t + 1n;
  return { result, won: result >= t, winningCount: w, perChip: [LIMBO_SCALE, 100n * w] };
}

export function rederive({ server_seed, client_seed, nonce = 0, wager, game, params }) {
  const block0 = createHmac("sha256", Buffer.from(server_seed, "ascii"))
    .update(`${client_seed}:${nonce}:0`, "utf8")
    .digest();
  const u0 = BigInt(block0.readUInt32BE(0));
  const u1 = BigInt(block0.readUInt32BE(4));
  const w = BigInt(wager);
  let result, won, a, b;
  if (game === "coinflip") {
    const outcome = u0 >= 2n ** 31n ? "heads" : "tails";
    result = { outcome };
    won = outcome === params.call;
    [a, b] = [w * 198n, 100n];
  } else if (game === "dice") {
    const h = Number((u0 * 10001n) >> 32n);
    const t = params.target * 100;
    const under = (params.direction ?? "under") === "under";
    const W = BigInt(under ? t : 10000 - t);
    result = { roll_hundredths: h };
    won = under ? h < t : h > t;
    [a, b] = [w * 99n * 10001n, 100n * W];
  } else if (game === "roulette") {
    const pocket = Number((u0 * 37n) >> 32n);
    result = { pocket };
    won = COVERS[params.bet](pocket, params.number);
    [a, b] = [w * (MULTIPLE[params.bet] ?? 3n), 1n];
  } else if (game === "limbo") {
    const limbo = limboDraw(u0, BigInt(params.target_hundredths));
    result = { result_hundredths: Number(limbo.result) };
    won = limbo.won;
    [a, b] = [w * limbo.perChip[0], limbo.perChip[1]];
  } else {
    throw new Error(`no rule for the game ${game}`);
  }
  const bonus = u1 * b < (a % b) * 2n ** 32n ? 1n : 0n;
  const payout = won ? a / b + bonus : 0n;
  return {
    commitment: sha256Hex(server_seed),
    block0: block0.toString("hex"),
    u0: Number(u0),
    u1: Number(u1),
    result,
    won,
    payout: Number(payout),
    profit: Number(payout - w),
  };
}
