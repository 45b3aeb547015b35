import { BlockList, isIP } from 'node:net';

/**
 * The proxies whose word about the client's address is taken (LEAD_TRUSTED_PROXIES: addresses
 * and CIDR ranges, IPv4 or IPv6, comma-separated). Anyone can send an X-Forwarded-For header, so
 * it is read only when the connection comes from one of these.
 */
export class TrustedProxies {
  private readonly list = new BlockList();
  private readonly empty: boolean;

  constructor(spec: string) {
    const items = spec
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    this.empty = items.length === 0;
    for (const item of items) {
      const [address = '', bits] = item.split('/');
      const family = isIP(address);
      if (!family)
        throw new Error(`LEAD_TRUSTED_PROXIES: "${item}" is not an address or CIDR range`);
      const type = family === 6 ? 'ipv6' : 'ipv4';
      if (bits === undefined) this.list.addAddress(address, type);
      else {
        const prefix = Number(bits);
        if (!Number.isInteger(prefix) || prefix < 0 || prefix > (family === 6 ? 128 : 32))
          throw new Error(`LEAD_TRUSTED_PROXIES: "${item}" has no valid prefix length`);
        this.list.addSubnet(address, prefix, type);
      }
    }
  }

  has(address: string): boolean {
    if (this.empty) return false;
    const a = plain(address);
    const family = isIP(a);
    return family !== 0 && this.list.check(a, family === 6 ? 'ipv6' : 'ipv4');
  }

  /**
   * The client's address: the connection's own, or, when that is a trusted proxy, the right-most
   * address in X-Forwarded-For that is not a trusted proxy (the addresses left of it are the
   * client's own say, which anyone can forge).
   */
  clientOf(peer: string, forwardedFor: string | null | undefined): string {
    let client = plain(peer);
    if (!this.has(client) || !forwardedFor) return client;
    const hops = forwardedFor
      .split(',')
      .map((h) => plain(h.trim()))
      .filter((h) => isIP(h) !== 0);
    for (let i = hops.length - 1; i >= 0; i--) {
      client = hops[i] as string;
      if (!this.has(client)) return client;
    }
    return client;
  }
}

/** An IPv4 address as itself, not as IPv6 maps it (::ffff:10.0.0.1). */
function plain(address: string): string {
  return address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}
