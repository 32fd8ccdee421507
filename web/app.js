// The verifier page: the live floor, three ways to verify a round, the fairness monitor
// (monitor.js), the golden-vector self-check. Every verdict is audit/verdicts.mjs's, computed
// here by the wasm core and the signature checker against the signer this browser pinned
// (pin.js): the server only supplies receipts, the manifest and the seed batches. Checks are
// sequenced: a late answer never replaces the verdict of a later request.
import * as wasm from '../wasm/arcade.js';
import { latestOnly, verifyBet, verifyReceipt } from './bet.mjs';
import { pinned, rememberPlayer, rememberedPlayer } from './pin.js';
import { PAGE_GAMES, stepsOf } from './steps.js';
import { FROM_READER, failedChecks, headline, judgeRound, refusedVerdict, subject } from './verdicts.mjs';
import { core, modules, tone } from './verifier.js';

const $ = (selector) => document.querySelector(selector);
const el = (tag, text, className) => {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
};
const MARK = { ok: '✔', fail: '✘', skip: '–' };

function show({ verdict, receipt }) {
  const box = el('div', undefined, `verdict ${tone(verdict.verdict)}`);
  Object.assign(box.dataset, { verdict: verdict.verdict, check: verdict.check ?? '', checks: failedChecks(verdict).join(' '), betId: String(verdict.bet_id ?? ''), signer: verdict.signer ?? '' });
  box.append(el('strong', headline(verdict)), el('p', subject(verdict), 'subject'), el('p', verdict.reason));
  const list = el('ol');
  for (const step of stepsOf(receipt, verdict, wasm.gameDescriptions())) {
    const item = el('li', `${MARK[step.state]} ${step.title}`);
    item.append(el('pre', step.detail));
    list.append(item);
  }
  box.append(list);
  $('#result').replaceChildren(box);
}

const latest = latestOnly();

/** Runs one check; its verdict is shown only if no later check started meanwhile. */
async function run(check) {
  const turn = latest.start();
  $('#result').dataset.state = 'checking';
  let outcome;
  try {
    outcome = await check(turn.signal);
  } catch (error) {
    if (error.name === 'AbortError') return;
    outcome = { verdict: refusedVerdict({ check: error.code ?? 'answer', why: error.message }), receipt: null };
  }
  if (!turn.isLatest()) return;
  $('#result').dataset.state = 'done';
  show(outcome);
}

/** Bet `id` by id; `player`, the reader's own address when they gave it, must own the round. */
function byId(id, player = null) {
  return run(async (signal) => verifyBet({ api: location.origin, betId: String(id), modules: await modules(), pin: await pinned(), signal, player }));
}

/** The by-id form: the address given is remembered for the next visit, and checked. */
function byIdForm() {
  const player = $('#player-address').value.trim();
  rememberPlayer(player);
  return byId($('#bet-id').value, player || null);
}

function pasted(text) {
  return run(async (signal) => verifyReceipt({ api: location.origin, receipt: text, modules: await modules(), pin: await pinned(), signal }));
}

/** The by-hand form offers every game of the wasm core, and no other. */
function handGames() {
  $('#hand-game').replaceChildren(...wasm.games().map((game) => Object.assign(el('option', game), { value: game })));
  const hint = () => {
    const game = PAGE_GAMES[$('#hand-game').value];
    $('#hand-hint').textContent = game ? game.hint : 'this page has no form for this game';
  };
  $('#hand-game').addEventListener('change', hint);
  hint();
}

/** By hand: a derived round is its own receipt, the reader's, judged with no server call. */
function byHand() {
  const game = $('#hand-game').value;
  if (!Object.hasOwn(PAGE_GAMES, game)) {
    // A game this page has no form for is refused by name, never read as another game.
    const why = `unknown game ${JSON.stringify(game)}; this page derives ${Object.keys(PAGE_GAMES).join(', ')} by hand`;
    return run(async () => ({ verdict: refusedVerdict({ check: 'game', why }), receipt: null }));
  }
  const params = PAGE_GAMES[game].params($('#hand-call').value.trim(), $('#hand-extra').value.trim(), wasm.gameDescriptions());
  const input = {
    server_seed: $('#hand-server-seed').value.trim().toLowerCase(),
    client_seed: $('#hand-client-seed').value,
    wager: Number($('#hand-wager').value),
    params,
  };
  return run(async () => {
    try {
      const derived = wasm.derive(game, input);
      const committed = $('#hand-commitment').value.trim().toLowerCase();
      const receipt = { ...derived, commitment: committed || wasm.commitment(input.server_seed) };
      return { verdict: judgeRound({ wasm, proofs: null, trust: null, batches: null }, receipt, { from: FROM_READER }), receipt };
    } catch (error) {
      return { verdict: refusedVerdict({ check: 'rederive', why: `${error.code ?? 'error'}: ${error.message}` }), receipt: null };
    }
  });
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
    const report = wasm.verify(c.receipt);
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

/**
 * Loads the fairness monitor (its module, the floor's audit and the charts: none of the first
 * screen's bytes) once its section is (nearly) in view, and starts it.
 */
function watchMonitor() {
  // "Check" runs the monitor once it is loaded; before, it must not reload the page.
  $('#monitor-form').addEventListener('submit', (event) => event.preventDefault());
  const observer = new IntersectionObserver((entries) => {
    if (!entries.some((e) => e.isIntersecting)) return;
    observer.disconnect();
    import('./monitor.js').then((monitor) => monitor.startMonitor()).catch((error) => {
      Object.assign($('#monitor-status'), { textContent: `The monitor could not load: ${error.message}. Reload the page to try again.` }).dataset.state = 'error';
    });
  }, { rootMargin: '200px' });
  observer.observe($('#monitor'));
}

async function main() {
  tabs();
  await core();
  const v = wasm.version();
  $('#wasm-version').textContent = `arcade-wasm ${v.package}, fairness v${v.fairness_version}`;
  handGames();
  $('#player-address').value = rememberedPlayer();
  $('#panel-id').addEventListener('submit', (e) => { e.preventDefault(); byIdForm(); });
  $('#panel-receipt').addEventListener('submit', (e) => { e.preventDefault(); pasted($('#receipt').value); });
  $('#panel-hand').addEventListener('submit', (e) => { e.preventDefault(); byHand(); });
  $('#self-check').addEventListener('click', selfCheck);
  watchMonitor();
  document.body.dataset.ready = 'true';
  performance.mark('arcade:ready');
  floor().catch((error) => { $('#house').textContent = `floor unavailable: ${error.message}`; });
  // The signer is pinned (or its change shown) as soon as the manifest is read.
  pinned().catch(() => {});
}

main();
