// JSON columns of the Deep Research rows, read defensively: a malformed value reads as the fallback.
export function parseJson<T>(text: string | null | undefined, fallback: T): T {
  if (!text) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}
