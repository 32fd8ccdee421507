// The documents a deployment serves, read by an outsider who has only its URL: from the page, the
// agent's flow, the rules, the proofs, the golden vectors and their README, the discovery
// documents, the OpenAPI document and the games listing, every link (markdown links, HTML
// href/src, URLs, and site paths written in the text, in JSON strings and in OpenAPI's paths) is
// followed on the deployment itself, and every document reached that way is read the same way.
// A link off the deployment must be a stable public standard (a schema's or a specification's
// address); none may name a file of the repository (`server/src/…`, `core/`, a `.rs` file): an
// outsider cannot open those. An alternation of the games (`{flip|dice|…}`) names every game.
// Prints how many links it checked.
import assert from 'node:assert/strict';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

import { startServer } from './server.mjs';

const ROOT = process.env.ARCADE_ROOT ?? new URL('../..', import.meta.url).pathname;

// Where reading starts: what the brief of a served document covers.
const STARTS = [
  '/',
  '/llms.txt',
  '/rules.md',
  '/docs/proofs.md',
  '/vectors/fairness-v1.json',
  '/vectors/fairness-v1-limbo.json',
  '/vectors/README.md',
  '/.well-known/x402',
  '/api/arcade/manifest',
  '/api/openapi.json',
  '/openapi.json',
  '/api/arcade/games',
  '/server.json',
];

// Addresses off the deployment a document may name: identifiers of public standards (JSON
// Schema's meta-schema, the MCP registry's server.json schema) and specifications.
const STANDARD_HOSTS = new Set([
  'json-schema.org',
  'static.modelcontextprotocol.io',
  'eips.ethereum.org',
  'www.rfc-editor.org',
  'datatracker.ietf.org',
  'www.w3.org',
]);

// Paths on the deployment whose answers are code or assets, not documents: followed, not read.
const NOT_DOCUMENTS = [/^\/web\//, /^\/wasm\//, /^\/embed\//, /^\/api\/docs\/.+\.(js|css|png)$/];

// The repository's top-level directories: `name/…` written without a leading `/` is one of its
// files unless the deployment serves it at `/name/…`.
const TOP_DIRS = readdirSync(ROOT).filter((name) => !name.startsWith('.') && statSync(join(ROOT, name)).isDirectory());
const REPOSITORY_PATH = new RegExp(`(?<![\\w/.@:~-])(?:${TOP_DIRS.map(escape).join('|')})/[\\w.{}/-]*[\\w}]`, 'g');
// Source and test files no deployment serves.
const SOURCE_FILE = /(?<![\w/.@:~-])[\w-]+(?:\.test)?\.(?:rs|toml|sql|sh|py|ts)\b(?!\w)/g;
// A bare file name (`README.md beside this file`): resolved against the document, then the site.
const FILE_NAME = /(?<![\w/.@:~-])[\w-]+\.(?:md|json|txt|mjs|js|wasm|html)\b(?![\w/-])/g;
const URL_TEXT = /https?:\/\/[^\s"'`<>()\\]+/g;
const MARKDOWN_LINK = /\]\(([^)\s]+)\)/g;
const HTML_LINK = /\b(?:href|src|action)="([^"]*)"/g;
// A site path written in text: `/` then path characters and `{…}` placeholders, starting the
// text or after a space, a bracket, a quote or a backtick. A lone `/` only as a whole text or a
// whole code span (`/`).
const SITE_PATH = /(?<=^|[\s([`"'>=])\/(?:[\w.~%-]|\{[^{}\s]*\})+(?:\/(?:[\w.~%-]|\{[^{}\s]*\})*)*|^\/$|(?<=(?:^|[^\w`])`)\/(?=`)/g;

// Values for the placeholders of a path template, so a templated link is followed too.
const SAMPLE_ADDRESS = '0x00000000000000000000000000000000000000A1';
const PLACEHOLDERS = {
  address: SAMPLE_ADDRESS,
  tier: 'micro',
  bet_id: '1',
  round_id: 'r_00000000000000000000000000000000',
  batch_id: '1',
  index: '0',
  cashout_id: '1',
};

// Dead references that are known and fixed where they are written, each with what fixes it.
// Keyed by `<document> <target>`; none today.
const KNOWN = new Map();

function escape(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

let server;
let origin;
let gameNames;
let gameOfRoute;
before(async () => {
  server = await startServer({ command: 'dev' });
  origin = new URL(server.baseUrl).origin;
  const embed = await (await fetch(`${origin}/api/arcade/embed`)).json();
  PLACEHOLDERS.version = embed.version;
  const games = await (await fetch(`${origin}/api/arcade/games`)).json();
  gameNames = games.games.map((game) => game.name);
  gameOfRoute = Object.fromEntries(games.games.map((game) => [game.endpoint.split('/').at(-1), game.name]));
});
after(() => server?.stop());

/** `{a|b|c}` and `{a,b,c}` give one path each; `{name}` takes its sample value. */
function expand(path) {
  const match = path.match(/\{([^{}]*)\}/);
  if (!match) return [path];
  const [whole, inner] = match;
  const options = /[|,]/.test(inner) ? inner.split(/[|,]/) : [PLACEHOLDERS[inner]];
  if (options.some((option) => option === undefined)) return [];
  return options.flatMap((option) => expand(path.replace(whole, option)));
}

/** Every string of a JSON value, object keys included. */
function strings(value, out = []) {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) value.forEach((item) => strings(item, out));
  else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      out.push(key);
      strings(item, out);
    }
  }
  return out;
}

/** The texts of a document to read: its JSON strings, or its HTML without scripts and styles. */
function texts(kind, body) {
  if (kind.startsWith('application/json')) return strings(JSON.parse(body));
  if (kind.startsWith('text/html')) {
    const links = [...body.matchAll(HTML_LINK)].map((m) => `"${m[1]}"`);
    return [body.replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1>/g, ' '), ...links];
  }
  return [body];
}

/** The references a text makes: `{target, templated}` (a target relative to the document or the site). */
function references(text) {
  const found = [];
  const push = (target, kind) => found.push({ target: target.replace(/[.,;:]+$/, ''), kind });
  for (const m of text.matchAll(URL_TEXT)) push(m[0], 'url');
  for (const m of text.matchAll(MARKDOWN_LINK)) push(m[1], 'link');
  for (const m of text.matchAll(HTML_LINK)) push(m[1], 'link');
  const withoutUrls = text.replace(URL_TEXT, ' ');
  for (const m of withoutUrls.matchAll(SITE_PATH)) push(m[0], 'path');
  for (const m of withoutUrls.matchAll(FILE_NAME)) push(m[0], 'file');
  return found;
}

/** Repository paths and source files a text names: `[{name, resolvesAt}]`. */
function repositoryNames(text) {
  const bare = text.replace(URL_TEXT, ' ');
  return [
    ...[...bare.matchAll(REPOSITORY_PATH)].map((m) => ({ name: m[0], resolvesAt: `/${m[0]}` })),
    ...[...bare.matchAll(SOURCE_FILE)].map((m) => ({ name: m[0], resolvesAt: null })),
  ];
}

/**
 * Alternations in `text` that name some games but not all: game names or routes joined by `|`
 * (`/api/arcade/{flip|dice|roulette|limbo}`, `arcade_flip|dice|…`), code marks around them
 * allowed. (A list in prose may name a subset on purpose: "for coinflip and roulette".)
 */
function gameLists(text) {
  const names = [...new Set([...gameNames, ...Object.keys(gameOfRoute)])].map(escape).join('|');
  const run = new RegExp(`\\b(?:${names})\\b(?:\`?\\s*\\|\\s*\`?\\b(?:${names})\\b)+`, 'g');
  const partial = [];
  for (const [list] of text.matchAll(run)) {
    const named = new Set(list.match(new RegExp(`\\b(?:${names})\\b`, 'g')).map((n) => gameOfRoute[n] ?? n));
    if (named.size < gameNames.length) partial.push(`${list} (the games are ${gameNames.join(', ')})`);
  }
  return partial;
}

/** Whether an answer means the link leads somewhere: not the deployment's "no such resource". */
async function answer(url) {
  const response = await fetch(url, { redirect: 'follow' });
  const body = Buffer.from(await response.arrayBuffer()).toString('utf8');
  return { status: response.status, kind: response.headers.get('content-type') ?? '', body, url: response.url };
}

function unrouted(reply) {
  if (reply.status !== 404) return false;
  try {
    return JSON.parse(reply.body).code === 'not_found';
  } catch {
    return true;
  }
}

function resolves(reply, templated) {
  // The page's wasm files are built apart from the binary (web/build.sh); their route stands.
  const notBuilt = reply.status === 503 && /the wasm files are missing/.test(reply.body);
  if (reply.status >= 500 && !notBuilt) return false;
  if (notBuilt) console.log(`  (${new URL(reply.url).pathname}: the wasm package is not built here)`);
  return templated ? !unrouted(reply) : reply.status !== 404;
}

test('every link in every served document resolves on the deployment and names no repository file', async () => {
  const replies = new Map(); // url -> reply, each fetched once
  const fetched = async (url) => {
    if (!replies.has(url)) replies.set(url, await answer(url));
    return replies.get(url);
  };
  const documents = new Set();
  const queue = STARTS.map((path) => `${origin}${path}`);
  const dead = [];
  const internal = [];
  const foreign = [];
  const partialGameLists = [];
  const known = new Set();
  let links = 0;
  const checked = new Set();

  while (queue.length > 0) {
    const url = queue.shift();
    if (documents.has(url)) continue;
    documents.add(url);
    const reply = await fetched(url);
    assert.equal(reply.status, 200, `${url} is served`);
    const here = new URL(reply.url).pathname;
    const seen = new Set(); // each reference of a document counted once
    for (const text of texts(reply.kind, reply.body)) {
      for (const { name, resolvesAt } of repositoryNames(text)) {
        // `docs/proofs.md` written without its `/` still opens on the deployment.
        const opens = resolvesAt && (await fetched(`${origin}${resolvesAt}`)).status === 200;
        if (!opens) internal.push(`${here}: names ${name}`);
      }
      for (const list of gameLists(text)) partialGameLists.push(`${here}: ${list}`);
      for (const { target, kind } of references(text)) {
        if (target.startsWith('#') || seen.has(target)) continue;
        seen.add(target);
        const base = kind === 'file' || kind === 'link' ? reply.url : `${origin}/`;
        let absolute;
        try {
          absolute = new URL(target, base);
        } catch {
          dead.push(`${here}: ${target} is not a URL`);
          continue;
        }
        if (absolute.origin !== origin) {
          if (!STANDARD_HOSTS.has(absolute.hostname)) foreign.push(`${here}: ${target}`);
          else links += 1;
          continue;
        }
        const path = decodeURIComponent(absolute.pathname);
        // A named placeholder takes a sample value, which may name nothing (a bet not played).
        const templated = /\{[^{}|,]*\}/.test(path);
        const concretes = expand(path);
        if (concretes.length === 0) dead.push(`${here}: ${target} (no sample value for its placeholder)`);
        for (const concrete of concretes) {
          links += 1;
          const candidates = [`${origin}${concrete}`];
          // A bare file name may also be meant from the site's root.
          if (kind === 'file') candidates.push(`${origin}/${target}`);
          let ok = false;
          for (const candidate of candidates) {
            const followed = await fetched(candidate);
            checked.add(candidate);
            if (!resolves(followed, templated)) continue;
            ok = true;
            const page = new URL(followed.url).pathname;
            const readable = followed.status === 200 && /^(text\/(markdown|plain|html)|application\/json)/.test(followed.kind);
            if (readable && !NOT_DOCUMENTS.some((pattern) => pattern.test(page))) queue.push(followed.url);
            break;
          }
          if (ok) continue;
          if (KNOWN.has(`${here} ${target}`)) {
            known.add(`${here}: ${target}: ${KNOWN.get(`${here} ${target}`)}`);
            continue;
          }
          dead.push(`${here}: ${target} (${concrete}: ${(await fetched(candidates[0])).status})`);
        }
      }
    }
  }

  console.log(
    `served documents: ${documents.size} read, ${links} links checked (${checked.size} distinct on the deployment)`,
  );
  for (const url of [...documents].sort()) console.log(`  read ${new URL(url).pathname}`);
  for (const entry of known) console.log(`  known, to be fixed where it is written: ${entry}`);
  assert.deepEqual(dead, [], 'dead links');
  assert.deepEqual(internal, [], 'repository paths in served text');
  assert.deepEqual(foreign, [], 'links off the deployment that are no public standard');
  assert.deepEqual(partialGameLists, [], 'alternations of the games that leave a game out');
  assert.ok(links > 100, `${links} links`);
});

test('the proofs name this deployment\'s own signer, domain and marks', async () => {
  const manifest = await (await fetch(`${origin}/api/arcade/manifest`)).json();
  const proofs = await (await fetch(`${origin}/docs/proofs.md`)).text();
  assert.ok(!proofs.includes('{deployment.'), 'every value filled in');
  assert.ok(proofs.includes(`"signer": "${manifest.signer}"`), manifest.signer);
  assert.ok(proofs.includes(`"signing_domain": ${JSON.stringify(manifest.signing_domain)}`), JSON.stringify(manifest.signing_domain));
  const marks = proofs.match(/"signed_marks": (\{[\s\S]*?\n\})\n```/);
  assert.ok(marks, 'the marks block');
  assert.deepEqual(JSON.parse(marks[1]), manifest.signed_marks);
  console.log(`proofs.md: signer ${manifest.signer}, chainId ${manifest.signing_domain.chainId}, marks from ${manifest.signed_marks.signed_from}`);
});

test('each game says what the limits let it play, and limbo stops at the payout limit', async () => {
  const { games, limits } = await (await fetch(`${origin}/api/arcade/games`)).json();
  for (const game of games) {
    assert.ok(game.playable && typeof game.playable === 'object', `${game.name}: playable`);
    console.log(`${game.name}: playable ${JSON.stringify(game.playable)}`);
  }
  const limbo = games.find((game) => game.name === 'limbo').playable;
  const hundredths = Number(limbo.max_playable_target.replace('.', ''));
  assert.ok(hundredths < 100_000_000, limbo.max_playable_target);
  // A 1-chip win at target T returns a hair below T chips: the profit limit stops T near it.
  assert.ok(Math.abs(hundredths / 100 - (limits.max_payout_chips + 1)) <= 1, `${limbo.max_playable_target} for ${limits.max_payout_chips}`);
});
