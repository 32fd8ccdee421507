// Chips bought over x402 with the official client (@x402/fetch + @x402/evm), under a spending
// cap the caller sets: a tier whose price (the manifest's, then the 402 challenge's) is above
// what is left of the cap is refused before any payment is signed. Without a cap nothing is
// bought. A decimal cap is read at a dollar token's 6 decimals, this package's own: never at
// what the arcade says (a house stating 18 would turn "0.05" into a cap of billions). A payment
// is charged to the cap as it is signed, whatever the answer: a signed authorization can be
// settled by whoever holds it, so a refused or lost purchase still spent what it signed.
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { wrapFetchWithPayment, x402Client } from '@x402/fetch';
import { parseUnits } from 'viem';

import { ArcadeError, SpendingCapError, UnsupportedServerError } from './errors.js';
import type { ArcadeAccount } from './account.js';
import type { Purchase } from './types.js';

/** The decimals of the dollar tokens the arcade sells chips for (USDC's, the test dollar's). */
export const DOLLAR_DECIMALS = 6;

/** A cap in the token's base units (bigint), or a decimal amount of the token (`"0.50"`). */
export type SpendCap = bigint | string;

/** The cap in base units: a bigint as is, a decimal string at the token's decimals. */
export function capOf(cap: SpendCap | undefined, decimals: number): bigint {
  if (cap === undefined) return 0n;
  if (typeof cap === 'bigint') return cap;
  if (!/^\d+(\.\d+)?$/.test(cap.trim())) throw new RangeError(`maxSpend ${JSON.stringify(cap)}: a decimal amount of the token, or base units as a bigint`);
  return parseUnits(cap.trim(), decimals);
}

/** The price of `tier` in base units, as the manifest lists it. */
function listedPrice(manifest: any, tier: string): bigint {
  const resource = (manifest.resources ?? []).find((r: any) => r.tier === tier && String(r.path).endsWith(`/chips/${tier}`));
  if (!resource) {
    const tiers = [...new Set((manifest.resources ?? []).map((r: any) => r.tier))].join(', ');
    throw new RangeError(`no tier ${JSON.stringify(tier)}; the arcade sells ${tiers}`);
  }
  return BigInt(resource.amount);
}

/** Spends from one cap, one purchase at a time (calls made together wait their turn). */
export class Purse {
  /** The token's decimals: a dollar token's, whatever the manifest says (it must agree). */
  readonly decimals = DOLLAR_DECIMALS;
  /** The cap, in base units. */
  readonly cap: bigint;
  private spent = 0n;
  private turn: Promise<unknown> = Promise.resolve();

  constructor(private readonly account: ArcadeAccount, private readonly manifest: any, cap: SpendCap | undefined) {
    const stated = manifest.token?.decimals;
    if (stated !== undefined && stated !== DOLLAR_DECIMALS) throw new UnsupportedServerError('token.decimals', stated, [DOLLAR_DECIMALS]);
    this.cap = capOf(cap, this.decimals);
  }

  /** What is left of the cap, in base units. */
  get remaining(): bigint {
    return this.cap - this.spent;
  }

  /** Buys `tier` for the account's address; SpendingCapError when above what is left. */
  buy(baseUrl: string, tier: string): Promise<Purchase> {
    const bought = this.turn.then(() => this.buyNow(baseUrl, tier));
    this.turn = bought.catch(() => undefined);
    return bought;
  }

  private async buyNow(baseUrl: string, tier: string): Promise<Purchase> {
    const listed = listedPrice(this.manifest, tier);
    if (listed > this.remaining) throw new SpendingCapError(tier, listed, this.remaining);
    let refused: SpendingCapError | null = null;
    const client = new x402Client().register('eip155:*', new ExactEvmScheme(this.account));
    client.setSpendControls({ allowedAssets: [{ network: this.manifest.network, asset: this.manifest.asset }] });
    client.onBeforePaymentCreation(async ({ selectedRequirements }) => {
      const charged = BigInt(selectedRequirements.amount);
      if (charged <= this.remaining) {
        // Spent as it is signed: the answer may be refused or lost after the payment is taken.
        this.spent += charged;
        return;
      }
      refused = new SpendingCapError(tier, charged, this.remaining);
      return { abort: true, reason: refused.message };
    });
    let response: Response;
    try {
      response = await wrapFetchWithPayment(fetch, client)(new URL(`/api/arcade/chips/${tier}`, baseUrl), { method: 'POST' });
    } catch (error) {
      throw refused ?? error;
    }
    const body: any = await response.json().catch(() => null);
    if (!response.ok) throw new ArcadeError(body?.code ?? body?.error ?? `http_${response.status}`, response.status, body?.detail ?? body?.errorMessage ?? 'purchase refused', body);
    return body as Purchase;
  }
}
