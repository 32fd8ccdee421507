// What the local MCP server runs with: the arcade's URL, the spending cap, and the player's
// private key. The key comes only from the environment (ARCADE_PRIVATE_KEY) or a file
// (--key-file, or ARCADE_KEY_FILE), never from an argument: arguments show in process lists and
// in the MCP host's logs. Nothing here ever repeats a key, or a value that could be one.
import { readFileSync } from 'node:fs';

import type { Hex } from '../account.js';

export const USAGE = `usage: arcade-client mcp --url <arcade URL> [--max-spend <USD, e.g. 0.05>] [--key-file <path>]

Serves the arcade as MCP tools over stdio, for MCP hosts (Claude Desktop, Cursor, …): it holds
the player's key, signs everything, buys chips over x402 under --max-spend (none: it buys
nothing), and verifies every round before it answers.
The private key (0x and 64 hex digits): the environment variable ARCADE_PRIVATE_KEY, or a file
named by --key-file or ARCADE_KEY_FILE. Never an argument.`;

export interface Config {
  /** The arcade's base URL. */
  url: string;
  /** The most the server may spend on chips, a decimal of the token (USD); undefined: nothing. */
  maxSpend: string | undefined;
  key: Hex;
  /** Where the key came from, for the log (never the key). */
  keySource: string;
}

/** A configuration the server refuses to start with; the message says what to do. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

const FLAGS = { '--url': 'url', '--max-spend': 'maxSpend', '--key-file': 'keyFile' } as const;
type Flag = (typeof FLAGS)[keyof typeof FLAGS];
const KEY_FLAGS = ['--key', '--private-key', '--privateKey', '--private_key'];
const KEY = /^(0x)?[0-9a-fA-F]{64}$/;

const NO_KEY_IN_ARGS = 'the private key is never taken from an argument (process lists and MCP host logs show arguments): ' +
  'set ARCADE_PRIVATE_KEY in the environment (the host config\'s "env"), or put it in a file and pass --key-file PATH';

/** `--flag value` and `--flag=value` of the known flags; anything else refused, by name only. */
function flagsOf(argv: readonly string[]): Partial<Record<Flag, string>> {
  const found: Partial<Record<Flag, string>> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (KEY.test(arg.trim())) throw new ConfigError(`an argument looks like a private key, refused (it was exposed: use another key); ${NO_KEY_IN_ARGS}`);
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    if (KEY_FLAGS.includes(name)) throw new ConfigError(`${name}: ${NO_KEY_IN_ARGS}`);
    if (!(name in FLAGS)) throw new ConfigError(name.startsWith('-') ? `unknown option ${name}` : 'unexpected argument (not shown)');
    const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined || value === '') throw new ConfigError(`${name} needs a value`);
    if (KEY.test(value.trim())) throw new ConfigError(`the value of ${name} looks like a private key, refused (it was exposed: use another key); ${NO_KEY_IN_ARGS}`);
    found[FLAGS[name as keyof typeof FLAGS]] = value;
  }
  return found;
}

/** The key from the environment or from a file: exactly one of them, 0x and 64 hex digits. */
function keyOf(keyFile: string | undefined, env: NodeJS.ProcessEnv): { key: Hex; keySource: string } {
  const inEnv = env.ARCADE_PRIVATE_KEY?.trim() || undefined;
  const file = keyFile ?? (env.ARCADE_KEY_FILE?.trim() || undefined);
  if (file && KEY.test(file)) throw new ConfigError('ARCADE_KEY_FILE holds what looks like a private key, not a path: set ARCADE_PRIVATE_KEY to the key, or ARCADE_KEY_FILE to the path of a file holding it');
  if (inEnv && file) throw new ConfigError('both ARCADE_PRIVATE_KEY and a key file are given: give the key one way');
  if (!inEnv && !file) throw new ConfigError(`no private key: set ARCADE_PRIVATE_KEY, or pass --key-file PATH (or set ARCADE_KEY_FILE)`);
  let text = inEnv;
  let keySource = 'ARCADE_PRIVATE_KEY';
  if (file) {
    keySource = `key file ${file}`;
    try {
      text = readFileSync(file, 'utf8').trim();
    } catch (error) {
      throw new ConfigError(`cannot read the key file ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
  }
  if (!KEY.test(text!)) throw new ConfigError(`the private key from ${keySource} is not 0x and 64 hex digits`);
  const hex = text!.toLowerCase();
  return { key: (hex.startsWith('0x') ? hex : `0x${hex}`) as Hex, keySource };
}

/** The configuration of `arcade-client mcp <argv>`, or ConfigError. */
export function configOf(argv: readonly string[], env: NodeJS.ProcessEnv): Config {
  const flags = flagsOf(argv);
  if (!flags.url) throw new ConfigError('--url is required: the arcade\'s base URL, e.g. --url http://127.0.0.1:8402');
  let url: URL;
  try {
    url = new URL(flags.url);
  } catch {
    throw new ConfigError(`--url ${flags.url}: not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`--url ${flags.url}: http or https`);
  const maxSpend = flags.maxSpend?.trim();
  if (maxSpend !== undefined && !/^\d+(\.\d+)?$/.test(maxSpend)) throw new ConfigError(`--max-spend ${flags.maxSpend}: a decimal amount in USD, e.g. 0.05`);
  return { url: url.href, maxSpend, ...keyOf(flags.keyFile, env) };
}
