// The arcade's `GET /server.json` read as the MCP registry reads it: validated with ajv (draft-07)
// against the registry's published server.json schema of 2025-12-11 (registry/server.schema.json,
// its bytes pinned by sha256), with one streamable-HTTP remote at `/api/mcp` and the version an
// MCP `initialize` names. Copies broken on purpose show the validator rejects what the registry
// would.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';

import { startServer } from './server.mjs';

const SCHEMA_SHA256 = '3fba09590c99f61735d234822279f4223fab9e300c0a81e81c91ab62a4114de0';
const schemaBytes = readFileSync(new URL('./registry/server.schema.json', import.meta.url));
const schema = JSON.parse(schemaBytes.toString('utf8'));

// Strict ajv, taught the schema's two habits: the OpenAPI `example` annotation and union types.
const ajv = new Ajv({ allErrors: true, allowUnionTypes: true });
ajv.addVocabulary(['example']);
addFormats(ajv);
const validate = ajv.compile(schema);

function check(doc) {
  const valid = validate(doc);
  return { valid, errors: valid ? [] : validate.errors.map((e) => `${e.instancePath || '/'} ${e.message}`) };
}

let server;
let doc;
before(async () => {
  server = await startServer();
  const res = await fetch(`${server.baseUrl}/server.json`);
  assert.equal(res.status, 200, `GET /server.json answered ${res.status}`);
  assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
  doc = await res.json();
});
after(() => server?.stop());

test('the vendored schema is the published file, byte for byte', () => {
  assert.equal(createHash('sha256').update(schemaBytes).digest('hex'), SCHEMA_SHA256);
  assert.equal(schema.$schema, 'http://json-schema.org/draft-07/schema#');
});

test("the served server.json is valid against the registry's schema", () => {
  const result = check(doc);
  console.log(`server.json against ${schema.$id}: ${JSON.stringify(result)}`);
  assert.deepEqual(result, { valid: true, errors: [] });
});

test('it names the schema, one streamable-HTTP remote at /api/mcp, and a registry name', () => {
  assert.equal(doc.$schema, schema.$id);
  assert.deepEqual(doc.remotes, [{ type: 'streamable-http', url: `${server.baseUrl}/api/mcp` }]);
  assert.match(doc.name, new RegExp(schema.definitions.ServerDetail.properties.name.pattern));
  assert.ok(doc.description.length <= 100, `description is ${doc.description.length} chars`);
});

test("its version is the server's own, as MCP initialize names it", async () => {
  const transport = new StreamableHTTPClientTransport(new URL(doc.remotes[0].url));
  const client = new Client({ name: 'arcade-node-test', version: '1.0.0' });
  await client.connect(transport);
  try {
    assert.equal(doc.version, client.getServerVersion().version);
  } finally {
    await transport.terminateSession();
    await client.close();
  }
});

test('the validator rejects a websocket remote and a 101-character description', () => {
  const websocket = structuredClone(doc);
  websocket.remotes[0].type = 'websocket';
  const socketResult = check(websocket);
  assert.equal(socketResult.valid, false);
  assert.ok(socketResult.errors.some((e) => e.startsWith('/remotes/0/type')), socketResult.errors.join('; '));

  const wordy = { ...doc, description: 'x'.repeat(101) };
  const wordyResult = check(wordy);
  assert.equal(wordyResult.valid, false);
  assert.deepEqual(wordyResult.errors, ['/description must NOT have more than 100 characters']);
});
