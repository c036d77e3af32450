// SSRF guard: decides, before any connection, whether a URL's host may be contacted, and returns the
// vetted addresses so that the connection can be pinned to them (a second DNS answer is never used).
import { lookup as dnsLookup } from "node:dns/promises";
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";
import { raceAbort } from "./abort";
import { ScrapeError } from "./errors";

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to all of its addresses; injectable so that tests never touch real DNS. */
export type LookupFn = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemLookup: LookupFn = async (hostname) => {
  const answers = await dnsLookup(hostname, { all: true, verbatim: true });
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR("2000::/3");
const NAT64_WELL_KNOWN = ipaddr.IPv6.parseCIDR("64:ff9b::/96");

// IPv6 forms that carry an IPv4 address are judged by that address: ::ffff:127.0.0.1 is loopback.
function embeddedIPv4(v6: ipaddr.IPv6): ipaddr.IPv4 | null {
  const bytes = v6.toByteArray();
  switch (v6.range()) {
    case "ipv4Mapped":
    case "rfc6145":
      return new ipaddr.IPv4(bytes.slice(12));
    case "rfc6052":
      return v6.match(NAT64_WELL_KNOWN) ? new ipaddr.IPv4(bytes.slice(12)) : null;
    case "6to4":
      return new ipaddr.IPv4(bytes.slice(2, 6));
    default:
      return null;
  }
}

/**
 * The special-purpose range an address belongs to ("loopback", "private", "linkLocal", …), or
 * "unicast" for an ordinary public address. Anything unparseable is "invalid".
 */
export function addressRange(ip: string): string {
  if (isIP(ip) === 0) return "invalid";
  const addr = ipaddr.parse(ip);
  if (addr.kind() === "ipv4") return addr.range();
  const v6 = addr as ipaddr.IPv6;
  const v4 = embeddedIPv4(v6);
  if (v4) return v4.range();
  const range = v6.range();
  if (range !== "unicast") return range;
  // Only 2000::/3 is allocated for global unicast; anything else (e.g. ::127.0.0.1) is not a web host.
  return v6.match(GLOBAL_UNICAST_V6) ? "unicast" : "reserved";
}

export function isPublicAddress(ip: string): boolean {
  return addressRange(ip) === "unicast";
}

const RANGE_LABELS: Record<string, string> = {
  loopback: "a loopback address",
  private: "a private address",
  linkLocal: "a link-local address",
  uniqueLocal: "a unique-local address",
  carrierGradeNat: "a carrier-grade NAT address",
  unspecified: "an unspecified address",
  broadcast: "a broadcast address",
  multicast: "a multicast address",
  reserved: "a reserved address",
  invalid: "an invalid address",
};

function describeRange(range: string): string {
  return RANGE_LABELS[range] ?? "a special-purpose address";
}

const METADATA_NAMES = new Set([
  "metadata",
  "metadata.google.internal",
  "metadata.goog",
  "instance-data",
  "instance-data.ec2.internal",
]);

/** Why a host name is refused without even resolving it, or null. */
function blockedName(host: string): string | null {
  if (host === "localhost" || host.endsWith(".localhost")) return "a local host name";
  if (METADATA_NAMES.has(host)) return "a cloud metadata host name";
  return null;
}

export function assertHttpUrl(url: URL, context = "Only http and https URLs can be scraped"): void {
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ScrapeError("invalid_url", `${context} (got ${url.protocol.slice(0, 20)})`);
  }
}

export interface GuardOptions {
  allowPrivate: boolean;
  lookup?: LookupFn;
  signal?: AbortSignal;
}

/**
 * Vets a URL's host and returns the addresses a connection may use. Throws ScrapeError "blocked"
 * when the host is, or resolves to (any record), a non-public address, unless allowPrivate.
 */
export async function resolveTarget(url: URL, options: GuardOptions): Promise<ResolvedAddress[]> {
  assertHttpUrl(url);
  const host = url.hostname.replace(/^\[|\]$/g, "").replace(/\.$/, "").toLowerCase();
  if (!host) throw new ScrapeError("invalid_url", "The URL has no host name");

  const family = isIP(host);
  if (family !== 0) {
    const range = addressRange(host);
    if (!options.allowPrivate && range !== "unicast") {
      throw new ScrapeError("blocked", `Refused: ${host} is ${describeRange(range)}`);
    }
    return [{ address: host, family: family === 6 ? 6 : 4 }];
  }

  const why = blockedName(host);
  if (!options.allowPrivate && why) throw new ScrapeError("blocked", `Refused: ${host} is ${why}`);

  let addresses: ResolvedAddress[];
  try {
    addresses = await raceAbort((options.lookup ?? systemLookup)(host), options.signal);
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw new ScrapeError("network", `Could not resolve ${host}`, { cause: error });
  }
  if (addresses.length === 0) throw new ScrapeError("network", `Could not resolve ${host}`);

  for (const { address } of addresses) {
    const range = addressRange(address);
    if (range === "invalid") throw new ScrapeError("network", `Could not resolve ${host}`);
    if (!options.allowPrivate && range !== "unicast") {
      throw new ScrapeError("blocked", `Refused: ${host} resolves to ${describeRange(range)} (${address})`);
    }
  }
  return addresses;
}
