import type { CitedUrl } from './collect.js';

/** What a source URL answered. */
export type Verdict =
  | { kind: 'ok'; status: number }
  | { kind: 'moved'; status: number; location: string }
  | { kind: 'dead'; status: number | null; reason: string }
  | { kind: 'other'; status: number };

export interface CheckOptions {
  /** Sent with every request: names the site whose owner asks. */
  userAgent: string;
  /** Per request, in milliseconds. */
  timeoutMs: number;
  /** Between two requests to the same host, in milliseconds. */
  delayMs: number;
  /** Hosts asked at once (each one request at a time). */
  hosts: number;
  /** Called as each URL is answered. */
  onResult?: (url: CitedUrl, verdict: Verdict) => void;
}

const MOVED = new Set([301, 302, 303, 307, 308]);
const GONE = new Set([404, 410]);

/** One request, its redirect not followed; null for a timeout or a failed connection. */
async function ask(
  url: string,
  method: 'HEAD' | 'GET',
  options: CheckOptions,
): Promise<Response | { error: string }> {
  try {
    const res = await fetch(url, {
      method,
      redirect: 'manual',
      headers: { 'user-agent': options.userAgent, accept: 'text/html,*/*;q=0.5' },
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    // The body is not wanted: let the connection go.
    await res.body?.cancel().catch(() => {});
    return res;
  } catch (err) {
    const e = err as Error & { cause?: { code?: string } };
    if (e.name === 'TimeoutError' || e.name === 'AbortError')
      return { error: `no answer in ${options.timeoutMs / 1000} s` };
    return { error: e.cause?.code ?? e.message };
  }
}

/** HEAD, then GET where the server does not take HEAD (405, 501); judged by the answer. */
async function checkUrl(url: string, options: CheckOptions): Promise<Verdict> {
  let res = await ask(url, 'HEAD', options);
  if (!('error' in res) && (res.status === 405 || res.status === 501))
    res = await ask(url, 'GET', options);
  if ('error' in res) return { kind: 'dead', status: null, reason: res.error };
  if (res.status >= 200 && res.status < 300) return { kind: 'ok', status: res.status };
  if (MOVED.has(res.status)) {
    const to = res.headers.get('location');
    if (to) return { kind: 'moved', status: res.status, location: new URL(to, url).href };
  }
  if (GONE.has(res.status)) return { kind: 'dead', status: res.status, reason: `${res.status}` };
  return { kind: 'other', status: res.status };
}

const hostOf = (url: string) => {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Every URL asked, politely: a host's URLs one after another with a pause between, a few hosts
 * at once. Returns the verdicts in the order of `urls`.
 */
export async function checkSources(
  urls: readonly CitedUrl[],
  options: CheckOptions,
): Promise<Verdict[]> {
  const verdicts: Verdict[] = new Array(urls.length);
  const byHost = new Map<string, number[]>();
  urls.forEach((u, i) => {
    const host = hostOf(u.url);
    byHost.set(host, [...(byHost.get(host) ?? []), i]);
  });
  const queue = [...byHost.values()];
  const worker = async () => {
    for (let list = queue.shift(); list; list = queue.shift())
      for (const [k, i] of list.entries()) {
        if (k > 0) await sleep(options.delayMs);
        const cited = urls[i] as CitedUrl;
        const verdict = await checkUrl(cited.url, options);
        verdicts[i] = verdict;
        options.onResult?.(cited, verdict);
      }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.hosts) }, worker));
  return verdicts;
}
