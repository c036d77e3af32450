// Lenient JSON recovery for models that ignore response_format: code fences, prose around the
// object, a trailing comma. Pure; unit-tested.
export function extractJson(text: string): unknown {
  const candidates: string[] = [];
  const fence = /```(?:json|JSON)?\s*([\s\S]*?)```/g;
  for (const match of text.matchAll(fence)) candidates.push(match[1]);
  const firstBrace = text.search(/[[{]/);
  if (firstBrace >= 0) {
    const open = text[firstBrace];
    const close = open === "{" ? "}" : "]";
    const last = text.lastIndexOf(close);
    if (last > firstBrace) candidates.push(text.slice(firstBrace, last + 1));
  }
  candidates.push(text);
  for (const candidate of candidates) {
    const parsed = tryParse(candidate.trim());
    if (parsed !== undefined) return parsed;
  }
  throw new SyntaxError("The reply contains no parseable JSON");
}

function tryParse(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    try {
      return JSON.parse(text.replace(/,\s*([}\]])/g, "$1"));
    } catch {
      return undefined;
    }
  }
}
