// A lying house for the tests: an HTTP proxy in front of the real arcade that passes every
// request on and, when told, rewrites one JSON answer (`rewrite`) or drops one answer after the
// arcade acted on the request (`drop`: the connection is closed, nothing is answered).
import { createServer } from 'node:http';

const HOP = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive', 'content-encoding']);

async function readBody(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return Buffer.concat(chunks);
}

const pass = (headers) => Object.fromEntries([...Object.entries(headers)].filter(([name]) => !HOP.has(name.toLowerCase())));

/**
 * Starts the proxy: `{url, log, rewrite, drop, stop}`. `rewrite(method, path, json)` returns
 * the JSON to answer instead (undefined: as it was); `drop(method, path, headers)` true drops
 * that answer once; `refuse(method, path)` an error status answers it instead of the arcade; `answer(method, path, json)` `{status, body}` answers in place of what the arcade answered (after it acted). `log` lists `{method, path, headers, sent, dropped, body}` of every request passed on (`sent`: the request's body).
 */
export async function startProxy(upstream) {
  const proxy = { rewrite: null, drop: null, refuse: null, answer: null, log: [] };
  const server = createServer(async (req, res) => {
    const body = await readBody(req);
    const path = req.url;
    const entry = { method: req.method, path, headers: req.headers, sent: body.toString('utf8'), dropped: false, body: null };
    proxy.log.push(entry);
    const refused = proxy.refuse?.(req.method, path.split('?')[0]);
    if (refused !== undefined && refused !== null) {
      res.writeHead(refused, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ code: 'unavailable', detail: 'the service is unavailable' }));
      return;
    }
    const answer = await fetch(new URL(path, upstream), {
      method: req.method, headers: pass(req.headers), body: body.length > 0 ? body : undefined,
    });
    let out = Buffer.from(await answer.arrayBuffer());
    if (proxy.drop?.(req.method, path, req.headers)) {
      proxy.drop = null;
      entry.dropped = true;
      entry.body = JSON.parse(out.toString('utf8'));
      req.socket.destroy();
      return;
    }
    const replaced = proxy.answer?.(req.method, path.split('?')[0], JSON.parse(out.toString('utf8') || 'null'));
    if (replaced) {
      res.writeHead(replaced.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(replaced.body));
      return;
    }
    if (proxy.rewrite && answer.ok && (answer.headers.get('content-type') ?? '').includes('json')) {
      const changed = proxy.rewrite(req.method, path.split('?')[0], JSON.parse(out.toString('utf8')));
      if (changed !== undefined) out = Buffer.from(JSON.stringify(changed));
    }
    res.writeHead(answer.status, pass(Object.fromEntries(answer.headers)));
    res.end(out);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${server.address().port}`;
  proxy.stop = () => new Promise((resolve) => { server.closeAllConnections(); server.close(resolve); });
  return proxy;
}
