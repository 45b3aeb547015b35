import type { Server, ServerOptions } from 'node:http';

/**
 * What one client may hold of the server: how long it may take to send a request, how long a
 * connection may sit idle, and how many connections are open at once. Node's own defaults suit a
 * server behind a proxy that enforces its own (a request may take 5 minutes, its headers a
 * minute, checked every 30 seconds, and connections are unbounded): on the open internet a body
 * trickled a byte at a time held a connection past 130 s, and 20,000 idle connections held
 * 650 MB.
 */
export interface ServerLimits {
  /** Milliseconds to receive a request's headers, from the connection or the last request. */
  headersTimeout: number;
  /** Milliseconds to receive a whole request, its body included (the 408 answer). */
  requestTimeout: number;
  /** How often the two timeouts above are checked: a request is cut at most this much later. */
  checkInterval: number;
  /** Milliseconds a kept-alive connection waits for its next request. */
  keepAliveTimeout: number;
  /** Milliseconds a connection may send and receive nothing mid-request before it is closed. */
  idleTimeout: number;
  /**
   * Connections open at once; at the cap the one idle longest is closed for a new one, which is
   * refused only when every connection has a request under way (see connections.ts).
   */
  maxConnections: number;
  /**
   * Connections one address may hold (SERVE_MAX_CONNECTIONS_PER_ADDRESS); behind a trusted
   * proxy, requests under way per forwarded address.
   */
  maxPerAddress: number;
}

/**
 * A lead form's post is a few kilobytes, sent in well under a second even on a slow phone
 * network; a page's request is one packet. So a whole request gets 20 s (cut within 22 s, under
 * the 30 s the issue asks for), its headers 10 s. A thousand connections at once is far beyond
 * what a small business's site sees (a visitor's browser opens six at most) and, idle, about
 * 35 MB.
 */
export const DEFAULT_LIMITS: ServerLimits = {
  headersTimeout: 10_000,
  requestTimeout: 20_000,
  checkInterval: 2_000,
  keepAliveTimeout: 5_000,
  idleTimeout: 60_000,
  maxConnections: 1_000,
  maxPerAddress: 50,
};

/** The limits, defaults filled in: SERVE_MAX_CONNECTIONS_PER_ADDRESS, else the default. */
export function limitsOf(
  given: Partial<ServerLimits> = {},
  env: NodeJS.ProcessEnv = process.env,
): ServerLimits {
  const raw = env.SERVE_MAX_CONNECTIONS_PER_ADDRESS?.trim();
  const perAddress = raw ? Number(raw) : DEFAULT_LIMITS.maxPerAddress;
  if (!Number.isInteger(perAddress) || perAddress < 1)
    throw new Error(
      `SERVE_MAX_CONNECTIONS_PER_ADDRESS must be a whole number of 1 or more: "${raw}"`,
    );
  return { ...DEFAULT_LIMITS, maxPerAddress: perAddress, ...given };
}

/** The options `http.createServer` takes for the limits it enforces itself. */
export function serverOptions(limits: ServerLimits): ServerOptions {
  return {
    headersTimeout: limits.headersTimeout,
    requestTimeout: limits.requestTimeout,
    connectionsCheckingInterval: limits.checkInterval,
    keepAliveTimeout: limits.keepAliveTimeout,
  };
}

/** Sets the limits a created server takes as properties (the connection caps: connections.ts). */
export function applyLimits(server: Server, limits: ServerLimits): void {
  server.setTimeout(limits.idleTimeout);
}
