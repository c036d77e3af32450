// The client's host rules for one answer run (only_hostnames, bad_hostnames, boost_hostnames on
// the OpenAI-compatible endpoint): a host matches a rule's name or any subdomain of it.
import type { AnswerOptions } from "./types";

const matches = (host: string, names: string[]) => names.some((n) => host === n || host.endsWith(`.${n}`));

/** The bare hostname, lower case ("[::1]" → "::1"). */
const bare = (hostname: string) => hostname.toLowerCase().replace(/^\[|\]$/g, "");

/** Whether the run may search results from and read pages on this host. */
export function hostAllowed(hostname: string, options: AnswerOptions | undefined): boolean {
  const host = bare(hostname);
  if (options?.badHostnames?.length && matches(host, options.badHostnames)) return false;
  if (options?.onlyHostnames?.length && !matches(host, options.onlyHostnames)) return false;
  return true;
}

/** Whether a URL (http, https) may be used; knowledge-base sources and unparsable URLs are not the host rules' business. */
export function urlAllowed(url: string, options: AnswerOptions | undefined): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return true;
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return true;
  return hostAllowed(parsed.hostname, options);
}

/** Whether the URL's host is one the client asked to rank first. */
export function boosted(url: string, options: AnswerOptions | undefined): boolean {
  if (!options?.boostHostnames?.length) return false;
  try {
    return matches(bare(new URL(url).hostname), options.boostHostnames);
  } catch {
    return false;
  }
}
