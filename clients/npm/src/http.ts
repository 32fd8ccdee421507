// JSON over HTTP to the arcade: an error answer becomes an ArcadeError with the server's
// `code`; a rate-limited request (429) waits as told and is sent again; a request whose answer was lost (the connection dropped, or no answer in time) is
// sent again only where the caller says that is safe.
import { ArcadeError } from './errors.js';

/** How long one request may wait for its answer before it counts as lost. */
export const ANSWER_TIMEOUT_MS = 30_000;

/** The code of an error answer: the server's own, or one named after the status. */
function codeOf(status: number, body: any): string {
  if (typeof body?.code === 'string') return body.code;
  if (typeof body?.error === 'string') return body.error;
  return status === 422 ? 'validation_failed' : `http_${status}`;
}

function detailOf(body: any, text: string): string {
  if (typeof body?.detail === 'string') return body.detail;
  if (body?.detail !== undefined) return JSON.stringify(body.detail);
  return text.slice(0, 200);
}

/** True for an error that means no answer came (the request may or may not have been acted on). */
export const isLost = (error: unknown): boolean =>
  error instanceof Error && !(error instanceof ArcadeError) && (error.name === 'TypeError' || error.name === 'TimeoutError' || error.name === 'AbortError');

/** Waits a rate-limited request (429) makes as its `Retry-After` says, before the 429 is thrown. */
const MAX_WAITS = 5;
/** Longest single wait, in seconds, whatever `Retry-After` says. */
const MAX_WAIT_S = 30;

/** Sends once; a 429 (nothing was done) is waited out and sent again, up to MAX_WAITS times. */
async function send(url: URL, init: RequestInit): Promise<Response> {
  for (let waits = 0; ; waits++) {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(ANSWER_TIMEOUT_MS) });
    if (response.status !== 429 || waits >= MAX_WAITS) return response;
    await response.arrayBuffer();
    const seconds = Math.min(Math.max(Number(response.headers.get('retry-after')) || 1, 1), MAX_WAIT_S);
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  }
}

/** One request: the parsed JSON answer, or ArcadeError for an error status. */
export async function requestJson<T>(baseUrl: string, method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const response = await send(new URL(path, baseUrl), {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: any = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  if (!response.ok) throw new ArcadeError(codeOf(response.status, parsed), response.status, detailOf(parsed, text), parsed);
  if (parsed === null) throw new ArcadeError('not_json', response.status, `${method} ${path}: the answer is not JSON`, text);
  return parsed as T;
}

/**
 * The same request sent again while its answer is lost, up to `attempts` times: for calls the
 * server answers the same when repeated (a game call on the same round replays its receipt).
 */
export async function requestRetrying<T>(baseUrl: string, path: string, body: unknown, attempts = 4): Promise<{ answer: T; tries: number }> {
  for (let tries = 1; ; tries++) {
    try {
      return { answer: await requestJson<T>(baseUrl, 'POST', path, body), tries };
    } catch (error) {
      if (!isLost(error) || tries >= attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 * tries));
    }
  }
}
