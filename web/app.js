// The verifier page: the live floor, three ways to verify a round, the fairness monitor
// (monitor.js), the golden-vector self-check.
// Every verdict is computed here by the wasm core; the server only supplies receipts.
import { commitment, deriveCoinflip, deriveDice, deriveRoulette, verify, version } from '../wasm/arcade.js';
import { startMonitor } from './monitor.js';
import { explain, refused } from './steps.js';
import { core } from './verifier.js';

const $ = (selector) => document.querySelector(selector);
const el = (tag, text, className) => {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
};

function show({ verdict, reason, steps }) {
  const box = el('div', undefined, `verdict ${verdict}`);
  box.dataset.verdict = verdict;
  box.append(el('strong', verdict === 'pass' ? 'PASS: provably fair' : 'FAIL'), el('p', reason));
  const list = el('ol');
  for (const step of steps) {
    const item = el('li', `${step.ok ? '✔' : '✘'} ${step.title}`);
    item.append(el('pre', step.detail));
    list.append(item);
  }
  box.append(list);
  $('#result').replaceChildren(box);
}

function check(receipt) {
  try {
    show(explain(receipt, verify(receipt)));
  } catch (error) {
    show(refused(error));
  }
}

async function byId(id) {
  const response = await fetch(`/api/arcade/verify/${encodeURIComponent(id)}`);
  const body = await response.json();
  if (!response.ok) return show({ verdict: 'fail', reason: `${body.code}: ${body.detail}`, steps: [] });
  check(body);
}

function byHand() {
  const game = $('#hand-game').value;
  const call = $('#hand-call').value.trim();
  const extra = $('#hand-extra').value.trim();
  const params = game === 'coinflip' ? { call }
    : game === 'dice' ? { target: Number(call), direction: extra || 'under' }
    : { bet: call, number: extra === '' ? null : Number(extra) };
  const input = {
    server_seed: $('#hand-server-seed').value.trim().toLowerCase(),
    client_seed: $('#hand-client-seed').value,
    wager: Number($('#hand-wager').value),
    params,
  };
  try {
    const derive = { coinflip: deriveCoinflip, dice: deriveDice, roulette: deriveRoulette }[game];
    const derived = derive(input);
    const committed = $('#hand-commitment').value.trim().toLowerCase();
    // A derived round is its own receipt: checking it shows every step of the derivation.
    const receipt = { ...derived, commitment: committed || commitment(input.server_seed) };
    check(receipt);
  } catch (error) {
    show(refused(error));
  }
}

function tabs() {
  const all = [...document.querySelectorAll('[role="tab"]')];
  const select = (tab) => {
    for (const other of all) {
      const selected = other === tab;
      other.setAttribute('aria-selected', String(selected));
      other.tabIndex = selected ? 0 : -1;
      document.getElementById(other.getAttribute('aria-controls')).hidden = !selected;
    }
    tab.focus();
  };
  for (const [i, tab] of all.entries()) {
    tab.addEventListener('click', () => select(tab));
    tab.addEventListener('keydown', (event) => {
      const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
      if (step) select(all[(i + step + all.length) % all.length]);
    });
  }
}

async function floor() {
  const [recent, house] = await Promise.all([
    fetch('/api/arcade/recent?limit=10').then((r) => r.json()),
    fetch('/api/arcade/house').then((r) => r.json()),
  ]);
  const stat = (label, value) => {
    const box = el('div');
    box.append(el('div', label, 'muted'), el('strong', String(value)));
    return box;
  };
  $('#house').replaceChildren(
    stat('Rounds', house.all.rounds), stat('Wagered', house.all.wagered),
    stat('Paid out', house.all.paid_out), stat('House net', house.all.house_net),
  );
  const rows = recent.map((round) => {
    const row = el('tr');
    for (const cell of [round.bet_id, round.game, round.address, round.wager, round.payout]) row.append(el('td', String(cell)));
    const button = el('button', 'verify');
    button.type = 'button';
    button.setAttribute('aria-label', `verify bet ${round.bet_id}`);
    button.addEventListener('click', () => {
      $('#bet-id').value = round.bet_id;
      byId(round.bet_id);
      $('#result').scrollIntoView({ block: 'nearest' });
    });
    const last = el('td');
    last.append(button);
    row.append(last);
    return row;
  });
  $('#recent tbody').replaceChildren(...rows);
}

async function selfCheck() {
  const { cases } = await (await fetch('/vectors/fairness-v1.json')).json();
  let passed = 0;
  const failed = [];
  for (const c of cases) {
    const report = verify(c.receipt);
    const t = report.trace;
    const ok = report.verified && t.block0 === c.expect.block0 && t.u0 === c.expect.u0 && t.u1 === c.expect.u1;
    if (ok) passed += 1;
    else failed.push(c.name);
  }
  const result = $('#self-check-result');
  result.dataset.passed = String(passed);
  result.dataset.total = String(cases.length);
  result.textContent = failed.length === 0
    ? `All ${cases.length} golden vectors re-derive in this browser.`
    : `${failed.length} of ${cases.length} vectors FAIL: ${failed.slice(0, 5).join(', ')}`;
}

async function main() {
  tabs();
  await core();
  const v = version();
  $('#wasm-version').textContent = `arcade-wasm ${v.package}, fairness v${v.fairness_version}`;
  $('#panel-id').addEventListener('submit', (e) => { e.preventDefault(); byId($('#bet-id').value); });
  $('#panel-receipt').addEventListener('submit', (e) => {
    e.preventDefault();
    try {
      check(JSON.parse($('#receipt').value));
    } catch (error) {
      show({ verdict: 'fail', reason: `not a receipt: ${error.message}`, steps: [] });
    }
  });
  $('#panel-hand').addEventListener('submit', (e) => { e.preventDefault(); byHand(); });
  $('#self-check').addEventListener('click', selfCheck);
  startMonitor();
  document.body.dataset.ready = 'true';
  performance.mark('arcade:ready');
  floor().catch((error) => { $('#house').textContent = `floor unavailable: ${error.message}`; });
}

main();
