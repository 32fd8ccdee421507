// <arcade-verifier>: an embeddable verdict for any site. The arcade's fairness core (wasm) and
// its signature checker run in the reader's browser; the server is asked for the receipt, the
// manifest and the signed seed batches, and every verdict is audit/verdicts.mjs's: "pass" only
// when the bet re-derives, the pinned signer signed it, its seed is in a signed batch and its
// player signed the play (the Play naming the commitment they were shown).
//
//   the snippet GET /api/arcade/embed answers (every file pinned by its hash), then
//   <arcade-verifier bet-id="42" api="https://ARCADE" signer="0x…"></arcade-verifier>
//   <arcade-verifier bet-id="42" api="https://ARCADE" signer="0x…" player="0x…yours"></arcade-verifier>
//   <arcade-verifier receipt='{"game":"dice",...}'></arcade-verifier>
// `player`: the reader's own address; given, a round of another address fails (`player`).
import * as arcade from '../wasm/arcade.js';
import { latestOnly, verifyBet, verifyReceipt } from './bet.mjs';
import { arcadeBase, fairnessCore, proofsCore } from './cores.js';
import { stepsOf } from './steps.js';
import { failedChecks, headline, refusedVerdict, subject } from './verdicts.mjs';

/** Loads the wasm core once, from next to this module, only with its pinned hash. */
export function core() {
  return fairnessCore();
}

/** The signature module, loaded once with its pinned hash. A module that cannot be loaded, or
 * whose bytes are not the pinned ones, rejects (`wasm_refused`): the verdict is then a fail,
 * never a quieter "not proven" that a server could bring about by breaking the module. */
export function signatures() {
  return proofsCore();
}

/** The wasm modules a verdict needs: the core and the signature checker. */
export async function modules() {
  const [, proofs] = await Promise.all([core(), signatures()]);
  return { wasm: arcade, proofs };
}

/** The CSS class of a verdict. */
export const tone = (verdict) => ({ pass: 'pass', fail: 'fail', checking: 'checking' }[verdict] ?? 'unproven');

const STYLE = `
  :host { display: block; font: 14px/1.4 system-ui, sans-serif; color: #1d232a; }
  .box { border: 2px solid #8a939c; border-radius: 8px; padding: 10px 12px; }
  .pass { border-color: #1f7a3a; background: #eefaf1; }
  .unproven { border-color: #8a5a00; background: #fff6e0; }
  .fail { border-color: #b3261e; background: #fdeeee; }
  .verdict { font-weight: 700; font-size: 16px; }
  .subject { font-size: 12px; word-break: break-all; }
  ol { margin: 8px 0 0; padding-left: 20px; }
  li { margin: 4px 0; }
  pre { white-space: pre-wrap; word-break: break-all; margin: 2px 0 0; font-size: 12px; }
  .checking { position: relative; overflow: hidden; }
  .checking::after { content: ""; position: absolute; left: 0; bottom: 0; height: 3px; width: 30%;
    background: #8a5a00; animation: working 1.2s ease-in-out infinite alternate; }
  @keyframes working { from { left: 0; } to { left: 70%; } }
  @media (prefers-reduced-motion: reduce) { .checking::after { animation: none; width: 100%; opacity: 0.5; } }
`;

const MARK = { ok: '✔', fail: '✘', skip: '–' };

class ArcadeVerifier extends HTMLElement {
  static observedAttributes = ['bet-id', 'api', 'receipt', 'signer', 'player'];

  constructor() {
    super();
    this.attachShadow({ mode: 'open' });
    this.latest = latestOnly();
  }

  connectedCallback() {
    this.run();
  }

  attributeChangedCallback() {
    if (this.isConnected) this.run();
  }

  api() {
    return (this.getAttribute('api') ?? arcadeBase).replace(/\/$/, '');
  }

  /** Checks what the attributes name; an answer that is no longer the latest is dropped. */
  async run() {
    const check = this.latest.start();
    this.render({ verdict: 'checking', reason: 'Checking…', bet_id: null, signer: null }, []);
    let outcome;
    try {
      const options = {
        api: this.api(), modules: await modules(), pin: { signer: this.getAttribute('signer') || null },
        player: this.getAttribute('player') || null, signal: check.signal,
      };
      outcome = this.hasAttribute('receipt')
        ? await verifyReceipt({ ...options, receipt: this.getAttribute('receipt') })
        : await verifyBet({ ...options, betId: this.getAttribute('bet-id') });
    } catch (error) {
      if (error.name === 'AbortError') return;
      outcome = { verdict: refusedVerdict({ check: error.code ?? 'answer', why: error.message }), receipt: null };
    }
    if (!check.isLatest()) return;
    const { verdict, receipt } = outcome;
    Object.assign(this.dataset, { verdict: verdict.verdict, betId: String(verdict.bet_id ?? ''), signer: verdict.signer ?? '', check: verdict.check ?? '', checks: failedChecks(verdict).join(' ') });
    this.render(verdict, stepsOf(receipt, verdict, arcade.gameDescriptions()));
    this.dispatchEvent(new CustomEvent('verified', { detail: verdict }));
  }

  render(verdict, steps) {
    const box = document.createElement('div');
    box.className = `box ${tone(verdict.verdict)}`;
    box.setAttribute('role', 'status');
    const head = document.createElement('div');
    head.className = 'verdict';
    head.textContent = verdict.verdict === 'checking' ? '…' : headline(verdict);
    const who = document.createElement('div');
    who.className = 'subject';
    who.textContent = verdict.verdict === 'checking' ? '' : subject(verdict);
    const why = document.createElement('div');
    why.textContent = verdict.reason;
    const list = document.createElement('ol');
    for (const step of steps) {
      const item = document.createElement('li');
      item.textContent = `${MARK[step.state]} ${step.title}`;
      const pre = document.createElement('pre');
      pre.textContent = step.detail;
      item.append(pre);
      list.append(item);
    }
    const style = document.createElement('style');
    style.textContent = STYLE;
    box.append(head, who, why, list);
    this.shadowRoot.replaceChildren(style, box);
  }
}

if (!customElements.get('arcade-verifier')) customElements.define('arcade-verifier', ArcadeVerifier);
