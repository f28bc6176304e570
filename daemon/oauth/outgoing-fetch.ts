import { createHash } from 'node:crypto';
import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { rootCertificates } from 'node:tls';
import { Agent, fetch as undiciFetch } from 'undici';
import type { Clock } from '../clock.js';
import type { OAuthStore } from '../store/oauth-types.js';

/**
 * How the authorization server fetches what a client names by URL: above all a client ID metadata
 * document (a `client_id` that is an https URL), also a client's `jwks_uri`. Anyone can make the
 * daemon fetch such a URL by presenting it, so every fetch is bounded and pointed only where the
 * deployment may go:
 * - the host name is resolved here and the connection is made to the address that was checked (a
 *   second resolution could answer differently: DNS rebinding), and private, loopback, link-local
 *   and other special-use addresses are refused unless the daemon itself listens on loopback only
 *   (a developer's machine, where the client's document may well be served locally);
 * - no redirect is followed (a 3xx is an answer like any other non-200: the library refuses it);
 * - the whole fetch has a time limit and the body a size limit;
 * - answers are cached in the OAuth store by their Cache-Control `max-age`, bounded, so every daemon
 *   of a deployment shares one cache and svc's clock decides freshness; a failed fetch is cached
 *   for the minimum, so a URL that does not answer is not fetched again on every request naming it.
 */
export interface OutgoingFetchOptions {
  store: OAuthStore;
  clock: Clock;
  /** True when the daemon binds loopback only: then private addresses may be fetched. */
  allowPrivateAddresses: boolean;
  timeoutMs: number;
  maxBytes: number;
  /** Cache lifetime bounds, seconds: an answer without max-age (or a failure) is kept `min`. */
  cacheSeconds: { min: number; max: number };
  /** Certificates trusted besides the system's (tests serve documents with a CA of their own). */
  extraCaCerts?: readonly string[];
}

export const OUTGOING_FETCH_DEFAULTS = {
  timeoutMs: 5_000,
  maxBytes: 64 * 1024,
  cacheSeconds: { min: 60, max: 24 * 3600 },
};

const KIND = 'FetchedDocument';

/** What the cache keeps of an answer: enough to answer again as the origin did. */
interface CachedAnswer {
  url: string;
  status?: number;
  contentType?: string;
  body?: string;
  /** A fetch that got no answer (refused address, timeout, too large, connection error). */
  error?: string;
}

const SPECIAL_USE = (() => {
  const list = new BlockList();
  const v4: Array<[string, number]> = [
    ['0.0.0.0', 8],
    ['10.0.0.0', 8],
    ['100.64.0.0', 10],
    ['127.0.0.0', 8],
    ['169.254.0.0', 16],
    ['172.16.0.0', 12],
    ['192.0.0.0', 24],
    ['192.0.2.0', 24],
    ['192.168.0.0', 16],
    ['198.18.0.0', 15],
    ['198.51.100.0', 24],
    ['203.0.113.0', 24],
    ['224.0.0.0', 4],
    ['240.0.0.0', 4],
  ];
  for (const [net, prefix] of v4) list.addSubnet(net, prefix, 'ipv4');
  const v6: Array<[string, number]> = [
    ['::', 128],
    ['::1', 128],
    ['64:ff9b::', 96],
    ['64:ff9b:1::', 48],
    ['100::', 64],
    ['2001::', 23],
    ['2001:db8::', 32],
    ['2002::', 16],
    ['fc00::', 7],
    ['fe80::', 10],
    ['fec0::', 10],
    ['ff00::', 8],
  ];
  for (const [net, prefix] of v6) list.addSubnet(net, prefix, 'ipv6');
  return list;
})();

/** Private, loopback, link-local, documentation, multicast…: nowhere a public document lives. */
export function isSpecialUseAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return SPECIAL_USE.check(address, 'ipv4');
  if (family !== 6) return true;
  // The block list matches IPv4-mapped forms (`::ffff:127.0.0.1`, `::ffff:7f00:1`) to its IPv4 rules.
  return SPECIAL_USE.check(address, 'ipv6');
}

class FetchRefused extends Error {}

export function createOutgoingFetch(options: OutgoingFetchOptions): typeof fetch {
  const { store, clock } = options;
  const ca = options.extraCaCerts?.length ? [...rootCertificates, ...options.extraCaCerts] : undefined;
  const hashOf = (url: string) => createHash('sha256').update(url).digest('hex');
  const nowIso = () => new Date(clock.now()).toISOString();

  const remember = async (answer: CachedAnswer, seconds: number) => {
    if (seconds <= 0) return;
    const at = clock.now();
    await store.put(
      {
        kind: KIND,
        id_hash: hashOf(answer.url),
        payload: { ...answer },
        grant_id: null,
        uid: null,
        expires_at: new Date(at + seconds * 1000).toISOString(),
        consumed_at: null,
      },
      new Date(at).toISOString(),
    );
  };

  const replay = (answer: CachedAnswer): Response => {
    if (answer.error !== undefined) throw new FetchRefused(answer.error);
    return new Response(answer.body ?? '', {
      status: answer.status ?? 200,
      headers: { 'content-type': answer.contentType ?? 'application/json' },
    });
  };

  return (async (input: string | URL | Request) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const cached = await store.find(KIND, hashOf(url), nowIso());
    if (cached) return replay(cached.payload as unknown as CachedAnswer);
    let answer: CachedAnswer;
    let seconds = options.cacheSeconds.min;
    try {
      const fetched = await fetchOnce(url, options, ca);
      answer = { url, ...fetched.answer };
      if (fetched.answer.status === 200) seconds = fetched.maxAge;
    } catch (err) {
      answer = { url, error: err instanceof FetchRefused ? err.message : 'the URL could not be fetched' };
    }
    await remember(answer, seconds);
    return replay(answer);
  }) as typeof fetch;
}

async function fetchOnce(
  url: string,
  options: OutgoingFetchOptions,
  ca: string[] | undefined,
): Promise<{ answer: Omit<CachedAnswer, 'url'>; maxAge: number }> {
  const target = new URL(url);
  if (target.protocol !== 'https:') throw new FetchRefused('only https URLs are fetched');
  const signal = AbortSignal.timeout(options.timeoutMs);
  const address = await checkedAddress(target.hostname, options.allowPrivateAddresses, signal);
  const family = isIP(address);
  const dispatcher = new Agent({
    connect: {
      ...(ca ? { ca } : {}),
      // The address checked above, whatever the name resolves to now.
      lookup: ((_host: string, opts: { all?: boolean }, done: (...args: unknown[]) => void) =>
        opts?.all ? done(null, [{ address, family }]) : done(null, address, family)) as unknown as LookupFunction,
    },
    pipelining: 0,
  });
  try {
    const res = await undiciFetch(url, {
      method: 'GET',
      headers: { accept: 'application/json' },
      redirect: 'manual',
      signal,
      dispatcher,
    });
    const body = await readLimited(res, options.maxBytes);
    return {
      answer: { status: res.status, contentType: res.headers.get('content-type') ?? undefined, body },
      maxAge: maxAgeOf(res.headers.get('cache-control'), options.cacheSeconds),
    };
  } catch (err) {
    if (err instanceof FetchRefused) throw err;
    if (signal.aborted) throw new FetchRefused(`no answer within ${options.timeoutMs} ms`);
    throw new FetchRefused('the URL could not be fetched');
  } finally {
    dispatcher.destroy().catch(() => {});
  }
}

/** Resolves the name once and checks every address it has; the first one is then connected to. */
async function checkedAddress(hostname: string, allowPrivate: boolean, signal: AbortSignal): Promise<string> {
  const bare = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  let addresses: string[];
  if (isIP(bare)) addresses = [bare];
  else {
    const resolving = dnsLookup(bare, { all: true, verbatim: true }).then((found) => found.map((a) => a.address));
    const aborted = new Promise<never>((_, reject) =>
      signal.addEventListener('abort', () => reject(new FetchRefused('the name did not resolve in time')), {
        once: true,
      }),
    );
    addresses = await Promise.race([resolving, aborted]).catch((err: unknown) => {
      throw err instanceof FetchRefused ? err : new FetchRefused('the name does not resolve');
    });
  }
  if (!addresses.length) throw new FetchRefused('the name does not resolve');
  if (!allowPrivate && addresses.some(isSpecialUseAddress))
    throw new FetchRefused('the name resolves to a private or special-use address');
  return addresses[0]!;
}

async function readLimited(res: Awaited<ReturnType<typeof undiciFetch>>, maxBytes: number): Promise<string> {
  const declared = Number(res.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await res.body?.cancel();
    throw new FetchRefused(`the answer is larger than ${maxBytes} bytes`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  if (res.body)
    for await (const chunk of res.body) {
      size += chunk.length;
      if (size > maxBytes) {
        await res.body.cancel().catch(() => {});
        throw new FetchRefused(`the answer is larger than ${maxBytes} bytes`);
      }
      chunks.push(Buffer.from(chunk));
    }
  return Buffer.concat(chunks).toString('utf8');
}

/** Cache-Control `max-age` (no-store / no-cache: not kept), bounded; absent: the minimum. */
function maxAgeOf(cacheControl: string | null, bounds: { min: number; max: number }): number {
  const value = cacheControl?.toLowerCase() ?? '';
  if (/(^|,)\s*(no-store|no-cache)\b/.test(value)) return 0;
  const maxAge = /(^|,)\s*max-age\s*=\s*"?(\d+)"?/.exec(value);
  const seconds = maxAge ? Number(maxAge[2]) : bounds.min;
  return Math.max(bounds.min, Math.min(bounds.max, seconds));
}
