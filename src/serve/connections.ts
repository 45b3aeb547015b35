import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { TrustedProxies } from '../lead/client-ip.js';

/**
 * Fair shares of the server's connections. A global cap alone let one client hold them all:
 * 1,000 idle sockets from one address, reopened as they were cut, left 3 of 43 other visitors'
 * pages answered. So each address may hold `perAddress` connections at most (a browser opens six
 * to a host), and when the global cap is reached the connection idle longest (open, no request
 * under way) is closed to make room; only when every connection is busy is a new one refused.
 * A trusted proxy (LEAD_TRUSTED_PROXIES) carries many visitors on its connections: its own are
 * not capped by address, and its requests are counted by the address it forwards instead.
 */
interface ConnectionGuard {
  /**
   * Counts a request under way until its answer ends; false (429 answered) when the visitor a
   * trusted proxy forwards has `perAddress` requests under way already.
   */
  admit(req: IncomingMessage, res: ServerResponse): boolean;
}

export function guardConnections(
  server: Server,
  limits: { maxConnections: number; perAddress: number },
  proxies: TrustedProxies,
): ConnectionGuard {
  const open = new Set<Socket>();
  // Insertion order is the order they became idle: the first is the one idle longest.
  const idle = new Set<Socket>();
  const busy = new WeakMap<Socket, number>();
  const byAddress = new Map<string, number>();
  const forwarded = new Map<string, number>();
  const count = (map: Map<string, number>, key: string, by: number) => {
    const n = (map.get(key) ?? 0) + by;
    if (n > 0) map.set(key, n);
    else map.delete(key);
  };

  server.on('connection', (socket: Socket) => {
    const address = plain(socket.remoteAddress ?? '');
    const proxy = proxies.has(address);
    if (!proxy && (byAddress.get(address) ?? 0) >= limits.perAddress) return void socket.destroy();
    if (open.size >= limits.maxConnections) {
      const [longest] = idle;
      if (!longest) return void socket.destroy();
      forget(longest);
      longest.destroy();
    }
    open.add(socket);
    idle.add(socket);
    if (!proxy) count(byAddress, address, 1);
    socket.once('close', () => {
      open.delete(socket);
      idle.delete(socket);
      if (!proxy) count(byAddress, address, -1);
    });
  });

  /** Takes an idle socket out of the books at once, so room is made for the one arriving. */
  function forget(s: Socket) {
    open.delete(s);
    idle.delete(s);
  }

  return {
    admit(req, res) {
      const socket = req.socket;
      const peer = plain(socket.remoteAddress ?? '');
      const client = proxies.has(peer)
        ? proxies.clientOf(peer, headerOf(req.headers['x-forwarded-for']))
        : null;
      if (client !== null && (forwarded.get(client) ?? 0) >= limits.perAddress) {
        res.writeHead(429, { 'Content-Type': 'text/plain; charset=utf-8', 'Retry-After': '1' });
        res.end('Too Many Requests\n');
        return false;
      }
      if (client !== null) count(forwarded, client, 1);
      idle.delete(socket);
      busy.set(socket, (busy.get(socket) ?? 0) + 1);
      res.once('close', () => {
        if (client !== null) count(forwarded, client, -1);
        const left = (busy.get(socket) ?? 1) - 1;
        busy.set(socket, left);
        if (left === 0 && open.has(socket) && !socket.destroyed) idle.add(socket);
      });
      return true;
    },
  };
}

function headerOf(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

/** An IPv4 address as itself, not as IPv6 maps it (::ffff:10.0.0.1). */
function plain(address: string): string {
  return address.startsWith('::ffff:') ? address.slice(7) : address;
}
