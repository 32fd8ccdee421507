// A proxy in front of the arcade that rewrites one receipt of the feed on its way through:
// what a lying server (or a man in the middle) would show the audit.
import { createServer } from 'node:http';

/** Starts the proxy; `tamper(receipt)` is applied to the receipt with bet id `betId`. */
export async function tamperingProxy(baseUrl, betId, tamper) {
  const server = createServer(async (req, res) => {
    const upstream = await fetch(`${baseUrl}${req.url}`);
    let body = Buffer.from(await upstream.arrayBuffer());
    if (req.url.startsWith('/api/arcade/receipts') && upstream.ok) {
      const page = JSON.parse(body.toString('utf8'));
      for (const receipt of page.receipts) if (receipt.bet_id === betId) tamper(receipt);
      body = Buffer.from(JSON.stringify(page));
    }
    res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' });
    res.end(body);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => server.close(r)) };
}
