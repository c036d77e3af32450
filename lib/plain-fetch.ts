/**
 * Node's own fetch. Next.js wraps the global fetch for its data cache and tracing; calls to the LLM
 * and the search engine are never cached, and the wrapper cost ~5% of the server's CPU in the
 * benchmark. Outside Next.js this is the global fetch.
 */
export function plainFetch(): typeof fetch {
  const patched = globalThis.fetch as typeof fetch & { _nextOriginalFetch?: typeof fetch };
  return patched._nextOriginalFetch ?? patched;
}
