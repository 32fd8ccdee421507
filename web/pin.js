// The signer this browser first saw, and the signed marks it first read, pinned in
// localStorage for this arcade: every later verdict on the page and in the monitor is checked
// against them, and a manifest that names another signer (or moves the marks) is said loudly,
// with a button to trust the new one on purpose. Also kept there: the reader's own address, as
// they last gave it to check rounds by id against.
import { fetchManifest } from './feed.mjs';
import { sameAddress } from './trust.mjs';

const KEY = `arcade-verifier:pin:${location.origin}`;

function stored() {
  try {
    return JSON.parse(localStorage.getItem(KEY)) ?? null;
  } catch {
    return null;
  }
}

const marksOf = (manifest) => {
  const m = manifest.signed_marks;
  return m ? { signed_from: m.signed_from, house_agent_signed_from: m.house_agent_signed_from } : null;
};

function save(manifest) {
  const pin = { signer: manifest.signer ?? null, marks: marksOf(manifest), since: new Date().toISOString() };
  try {
    localStorage.setItem(KEY, JSON.stringify(pin));
  } catch {
    // Storage refused (private mode): pinned for this visit only.
  }
  return pin;
}

function banner(pin, manifest) {
  const box = document.querySelector('#signer-banner');
  const signerMoved = !sameAddress(pin.signer, manifest.signer);
  const marks = marksOf(manifest);
  const marksMoved = !signerMoved && pin.marks && marks && JSON.stringify(pin.marks) !== JSON.stringify(marks);
  if (!signerMoved && !marksMoved) {
    box.hidden = true;
    return;
  }
  const strong = document.createElement('strong');
  strong.textContent = signerMoved ? 'The house\'s signer changed.' : 'The house\'s signed marks moved.';
  const text = document.createElement('p');
  text.textContent = signerMoved
    ? `This browser pinned ${pin.signer} on ${pin.since}; the manifest now names ${manifest.signer ?? 'no signer'}. Every verdict here fails until you choose to trust the new signer.`
    : `Pinned: signed from bet ${pin.marks.signed_from}; the manifest now says ${marks.signed_from}. Every verdict here fails until you choose to trust the new marks.`;
  const button = document.createElement('button');
  button.type = 'button';
  button.textContent = signerMoved ? `Trust ${manifest.signer} from now on` : 'Trust the new marks from now on';
  button.addEventListener('click', () => {
    current = Promise.resolve(save(manifest));
    box.hidden = true;
  });
  box.replaceChildren(strong, text, button);
  box.dataset.state = signerMoved ? 'signer-changed' : 'marks-moved';
  box.hidden = false;
}

let current = null;

/**
 * A pin saved before the house published marks takes the first marks it reads (under the same
 * signer), so marks that appear later are pinned from then on, not trusted at every height.
 */
function completed(pin, manifest) {
  if (!pin || pin.marks || !marksOf(manifest) || !sameAddress(pin.signer, manifest.signer)) return pin;
  const withMarks = { ...pin, marks: marksOf(manifest) };
  try {
    localStorage.setItem(KEY, JSON.stringify(withMarks));
  } catch {
    // Storage refused: pinned for this visit only.
  }
  return withMarks;
}

/**
 * The pin (`{signer, marks}`) verdicts are checked against: the one stored, or, the first time,
 * the manifest's (stored now). Read once per visit; the banner shows a manifest that differs.
 */
export function pinned() {
  current ??= fetchManifest(location.origin).then((manifest) => {
    const pin = completed(stored(), manifest) ?? save(manifest);
    banner(pin, manifest);
    return pin;
  }).catch(() => stored() ?? {});
  return current;
}

const PLAYER_KEY = `arcade-verifier:player:${location.origin}`;

/** The address the reader last gave as theirs ('' when none). */
export function rememberedPlayer() {
  try {
    return localStorage.getItem(PLAYER_KEY) ?? '';
  } catch {
    return '';
  }
}

/** Keeps the reader's address for their next visit ('' forgets it). */
export function rememberPlayer(address) {
  try {
    if (address) localStorage.setItem(PLAYER_KEY, address);
    else localStorage.removeItem(PLAYER_KEY);
  } catch {
    // Storage refused (private mode): kept in the field for this visit only.
  }
}
