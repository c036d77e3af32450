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
