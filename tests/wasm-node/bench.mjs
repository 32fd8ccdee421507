// npm run bench (in tests/wasm-node): wasm `verify` per game in Node, beside Node's own
// SHA-256 (OpenSSL) single-compression rate measured in the same run.
import { createHash } from "node:crypto";
import { verify } from "arcade-wasm";
import { cases } from "./vectors.mjs";

function rate(label, fn, seconds = 2) {
  for (let i = 0; i < 2000; i++) fn(); // warm up
  let n = 0;
  const start = process.hrtime.bigint();
  const until = start + BigInt(seconds * 1e9);
  let now = start;
  while (now < until) {
    for (let i = 0; i < 500; i++) fn();
    n += 500;
    now = process.hrtime.bigint();
  }
  const perSecond = n / (Number(now - start) / 1e9);
  console.log(`${label.padEnd(34)} ${Math.round(perSecond).toLocaleString("en-US").padStart(12)} /s`);
  return perSecond;
}

console.log(`node ${process.version}`);
for (const game of ["coinflip", "dice", "roulette"]) {
  const receipt = cases.find((c) => c.receipt.game === game).receipt;
  rate(`wasm verify ${game}`, () => verify(receipt));
}
const oneBlock = Buffer.alloc(55, 0x61);
rate("node:crypto sha256 (1 compression)", () => createHash("sha256").update(oneBlock).digest());
