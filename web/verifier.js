// <arcade-verifier>: an embeddable verdict for any site. The arcade's fairness core (wasm) runs
// in the reader's browser; the server is only asked for the receipt.
//
//   the snippet GET /api/arcade/embed answers (every file pinned by its hash), then
//   <arcade-verifier bet-id="42" api="https://ARCADE"></arcade-verifier>
//   <arcade-verifier receipt='{"game":"dice",...}'></arcade-verifier>
import { verify } from '../wasm/arcade.js';
import { arcadeBase, fairnessCore } from './cores.js';
import { explain, refused } from './steps.js';

/** Loads the wasm core once, from next to this module, only with its pinned hash. */
export function core() {
  return fairnessCore();
}

const STYLE = `
  :host { display: block; font: 14px/1.4 system-ui, sans-serif; color: #1d232a; }
  .box { border: 2px solid #8a939c; border-radius: 8px; padding: 10px 12px; }
  .pass { border-color: #1f7a3a; background: #eefaf1; }
  .fail { border-color: #b3261e; background: #fdeeee; }
  .verdict { font-weight: 700; font-size: 16px; }
  ol { margin: 8px 0 0; padding-left: 20px; }
  li { margin: 4px 0; }
  pre { white-space: pre-wrap; word-break: break-all; margin: 2px 0 0; font-size: 12px; }
`;

class ArcadeVerifier extends HTMLElement {
  static observedAttributes = ['bet-id', 'api', 'receipt'];

  constructor() {
    super();
    this.attachShadow({ mode: 'open' });
  }

  connectedCallback() {
    this.run();
  }

  attributeChangedCallback() {
    if (this.isConnected) this.run();
  }

  async receipt() {
    const inline = this.getAttribute('receipt');
    if (inline) return JSON.parse(inline);
    const api = (this.getAttribute('api') ?? arcadeBase).replace(/\/$/, '');
    const response = await fetch(`${api}/api/arcade/verify/${encodeURIComponent(this.getAttribute('bet-id'))}`);
    if (!response.ok) throw Object.assign(new Error((await response.json()).detail), { code: 'not_found' });
    return response.json();
  }

  async run() {
    this.render({ verdict: 'checking', reason: 'Checking…', steps: [] });
    let outcome;
    try {
      await core();
      const receipt = await this.receipt();
      outcome = explain(receipt, verify(receipt));
    } catch (error) {
      outcome = refused(error);
    }
    this.dataset.verdict = outcome.verdict;
    this.render(outcome);
    this.dispatchEvent(new CustomEvent('verified', { detail: outcome }));
  }

  render({ verdict, reason, steps }) {
    const label = { pass: 'PASS: provably fair', fail: 'FAIL', checking: '…' }[verdict];
    const box = document.createElement('div');
    box.className = `box ${verdict}`;
    box.setAttribute('role', 'status');
    const head = document.createElement('div');
    head.className = 'verdict';
    head.textContent = label;
    const why = document.createElement('div');
    why.textContent = reason;
    const list = document.createElement('ol');
    for (const step of steps) {
      const item = document.createElement('li');
      item.textContent = `${step.ok ? '✔' : '✘'} ${step.title}`;
      const pre = document.createElement('pre');
      pre.textContent = step.detail;
      item.append(pre);
      list.append(item);
    }
    const style = document.createElement('style');
    style.textContent = STYLE;
    box.append(head, why, list);
    this.shadowRoot.replaceChildren(style, box);
  }
}

if (!customElements.get('arcade-verifier')) customElements.define('arcade-verifier', ArcadeVerifier);
