// Lists stored as JSON text columns (SQLite has no arrays): follow-up questions and answers, warnings.

/** The strings of a JSON array column; [] for anything unreadable. */
export function parseStringArray(json: string): string[] {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.map(String) : [];
  } catch {
    return [];
  }
}

/** A JSON column read defensively: a missing or malformed value reads as the fallback. */
export function parseJson<T>(text: string | null | undefined, fallback: T): T {
  if (!text) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}
