/**
 * Where a survey webhook may post, so that no webhook reaches the server's own network. A URL's host is
 * resolved and every address it gives is checked; the request then goes to the checked address itself, so a
 * name that resolves elsewhere a moment later (DNS rebinding) changes nothing. The WHATWG URL parser has
 * already written odd IPv4 spellings (127.1, 2130706433, 0x7f000001, 017700000001) as dotted quads.
 */
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { http, https } from '../node-http.js';

/**
 * Loopback, private, link-local, CGNAT, unspecified, multicast and reserved ranges. A BlockList checks an
 * IPv4-mapped IPv6 address (::ffff:127.0.0.1) against the IPv4 ranges; IPv4-compatible ones (::127.0.0.1)
 * are in ::/96, with :: and ::1.
 */
const INTERNAL = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  INTERNAL.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 96],
  // NAT64: an IPv4 address behind a translator.
  ['64:ff9b::', 96],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  INTERNAL.addSubnet(network, prefix, 'ipv6');
}

/** A webhook's URL that may not be posted to; the message names the problem, `failure` is its class. */
export class WebhookTargetError extends Error {
  constructor(
    message: string,
    readonly failure: 'refused address' | 'connection failed',
  ) {
    super(message);
  }
}

export interface WebhookTarget {
  url: URL;
  address: string;
  family: number;
}

/**
 * The address to post `url` to: the first its host resolves to, once every one of them is checked (a
 * name with one internal address among public ones is refused as a whole).
 */
export async function webhookTarget(url: string, allowInternal: boolean): Promise<WebhookTarget> {
  const parsed = new URL(url);
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: { address: string; family: number }[];
  if (isIP(host)) {
    addresses = [{ address: host, family: isIP(host) }];
  } else {
    try {
      addresses = await lookup(host, { all: true, verbatim: true });
    } catch {
      throw new WebhookTargetError(`the host ${host} does not resolve`, 'connection failed');
    }
  }
  const internal = addresses.find(({ address, family }) => INTERNAL.check(address, family === 6 ? 'ipv6' : 'ipv4'));
  if (internal && !allowInternal) {
    const named = internal.address === host ? host : `${host} (${internal.address})`;
    throw new WebhookTargetError(
      `must not be an internal address: ${named} is loopback, private, link-local or reserved ` +
        '(surveys.webhooks_allow_internal_addresses allows them)',
      'refused address',
    );
  }
  return { url: parsed, address: addresses[0].address, family: addresses[0].family };
}

/** Why a delivery failed, in classes that tell nothing of the receiver's network beyond what it answered. */
export type DeliveryFailure = WebhookTargetError['failure'] | 'timed out' | `HTTP ${number}xx`;

/**
 * POSTs `body` to the checked address, with the URL's host in the Host header and as the TLS server name
 * (its certificate is checked against it); redirects are not followed. Resolves with the failure, or
 * undefined when the receiver took it (2xx).
 */
export function postToTarget(
  target: WebhookTarget,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
): Promise<DeliveryFailure | undefined> {
  const { url } = target;
  const secure = url.protocol === 'https:';
  return new Promise((resolve) => {
    const request = (secure ? https : http).request({
      host: target.address,
      family: target.family,
      port: url.port || (secure ? 443 : 80),
      path: `${url.pathname}${url.search}`,
      method: 'POST',
      headers: { ...headers, host: url.host, 'content-length': String(Buffer.byteLength(body)) },
      servername: isIP(url.hostname) ? undefined : url.hostname,
      signal: AbortSignal.timeout(timeoutMs),
    });
    request.on('response', (response) => {
      const status = response.statusCode ?? 0;
      response.destroy();
      resolve(status >= 200 && status < 300 ? undefined : `HTTP ${Math.floor(status / 100)}xx`);
    });
    request.on('error', (error: NodeJS.ErrnoException) => {
      resolve(error.code === 'ABORT_ERR' ? 'timed out' : 'connection failed');
    });
    request.end(body);
  });
}
