// tools/list over the wire (initialize, notifications/initialized, tools/list on the session,
// then DELETE), measured as the bytes of the result's JSON: in all, and per tool its total, its
// description, its inputSchema and its outputSchema.

const HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
};

/// The JSON-RPC message of a POST's answer (one SSE `data:` event, or a JSON body).
async function message(response) {
  const text = await response.text();
  if (!(response.headers.get('content-type') ?? '').includes('text/event-stream')) return JSON.parse(text);
  const data = text.split('\n').filter((line) => line.startsWith('data:')).map((line) => line.slice(5).trim());
  const found = data.filter((d) => d).map((d) => JSON.parse(d)).find((m) => 'result' in m || 'error' in m);
  if (!found) throw new Error(`no JSON-RPC answer in ${text}`);
  return found;
}

const bytes = (value) => Buffer.byteLength(JSON.stringify(value ?? null));

/// The tools/list result of the server at `baseUrl` and its sizes.
export async function listedTools(baseUrl) {
  const url = `${baseUrl}/api/mcp`;
  const init = await fetch(url, {
    method: 'POST',
    headers: HEADERS,
    body: JSON.stringify({
      jsonrpc: '2.0', id: 1, method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'size', version: '0' } },
    }),
  });
  if (init.status !== 200) throw new Error(`initialize: ${init.status}`);
  const session = init.headers.get('mcp-session-id');
  await message(init);
  const headers = { ...HEADERS, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
  await fetch(url, {
    method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  const listed = await message(await fetch(url, {
    method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
  }));
  await fetch(url, { method: 'DELETE', headers });
  if (!listed.result) throw new Error(`tools/list: ${JSON.stringify(listed)}`);
  const { result } = listed;
  return {
    result,
    total: bytes(result),
    tools: result.tools.map((tool) => ({
      name: tool.name,
      total: bytes(tool),
      description: bytes(tool.description),
      input: bytes(tool.inputSchema),
      output: bytes(tool.outputSchema),
    })),
  };
}
