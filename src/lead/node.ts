import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { ClientInfo, LeadHandler } from './handler.js';

/** Runs a Fetch-API handler for a Node request: the adapter `claimsite serve` and plain Node servers use. */
export async function handleNode(
  handler: LeadHandler,
  req: IncomingMessage,
  res: ServerResponse,
  client: ClientInfo = {},
) {
  const url = `http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`;
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) {
    if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(', ') : v);
  }
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  const request = new Request(url, {
    method: req.method,
    headers,
    body: hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : undefined,
    duplex: 'half',
  } as RequestInit);
  const response = await handler(request, {
    clientIp: client.clientIp ?? req.socket.remoteAddress,
  });
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(Buffer.from(await response.arrayBuffer()));
}
