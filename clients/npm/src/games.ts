// The four games' calls: what the caller passes, the body each endpoint takes, and the params
// the player's Play signature names (as the receipt will show them).
import { gameDescriptions } from 'arcade-wasm';

/** Limbo's target as the core reads it: the pattern of its description's `target` call field. */
const LIMBO_TARGET = (() => {
  const field = gameDescriptions().find((d) => d.name === 'limbo')?.call.find((f) => f.name === 'target');
  if (field?.kind !== 'text') throw new Error("arcade-wasm describes no limbo target pattern (a package of another version?)");
  return new RegExp(field.pattern);
})();

/** Every call: the wager in chips, and optionally the client seed (else a fresh random one). */
export interface Wager {
  wager: number;
  clientSeed?: string;
}
export interface FlipCall extends Wager {
  call: 'heads' | 'tails';
}
export interface DiceCall extends Wager {
  /** Roll under (or over) this, 1 to 99 for under, as the rules allow. */
  target: number;
  direction?: 'under' | 'over';
}
/** The 13 roulette bets: straight names a pocket; the others are the outside bets. */
export const ROULETTE_BETS = ['straight', 'red', 'black', 'odd', 'even', 'low', 'high',
  'dozen1', 'dozen2', 'dozen3', 'column1', 'column2', 'column3'] as const;
export type RouletteBet = (typeof ROULETTE_BETS)[number];
export interface RouletteCall extends Wager {
  bet: RouletteBet;
  /** The pocket, 0 to 36, for a straight bet. */
  number?: number;
}
export interface LimboCall extends Wager {
  /** The target multiplier with at most two decimals, 1.01 to 1000000.00 (a string keeps it exact). */
  target: string | number;
}

/** The game names the receipts use, by endpoint. */
export const GAME_OF = { flip: 'coinflip', dice: 'dice', roulette: 'roulette', limbo: 'limbo' } as const;
export type Endpoint = keyof typeof GAME_OF;

/** A call as the endpoint takes it (beside round_id, client_seed and wager) and as the Play names it. */
export interface CallShape {
  body: Record<string, unknown>;
  playParams: Record<string, unknown>;
}

/**
 * `target` in hundredths, exactly (`"2.5"` → 250), or a RangeError for a target the core's
 * pattern refuses (above 1.00 to 1000000, at most two decimals).
 */
export function hundredths(target: string | number): number {
  const text = String(target).trim();
  if (!LIMBO_TARGET.test(text)) throw new RangeError(`limbo target ${JSON.stringify(target)}: a multiplier above 1.00 up to 1000000, with at most two decimals`);
  const [whole, decimals = ''] = text.split('.');
  return Number(whole) * 100 + Number(decimals.padEnd(2, '0'));
}

/** The body fields and Play params of a call to `endpoint`. */
export function shapeOf(endpoint: Endpoint, call: FlipCall | DiceCall | RouletteCall | LimboCall): CallShape {
  switch (endpoint) {
    case 'flip': {
      const { call: side } = call as FlipCall;
      return { body: { call: side }, playParams: { call: side } };
    }
    case 'dice': {
      const { target, direction = 'under' } = call as DiceCall;
      return { body: { target, direction }, playParams: { target, direction } };
    }
    case 'roulette': {
      const { bet, number } = call as RouletteCall;
      const fields = bet === 'straight' ? { bet, number } : { bet };
      return { body: fields, playParams: fields };
    }
    case 'limbo': {
      const { target } = call as LimboCall;
      return { body: { target: String(target) }, playParams: { target_hundredths: hundredths(target) } };
    }
  }
}

/** A client seed the house cannot know before it commits: 16 random bytes, hex. */
export function randomClientSeed(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
