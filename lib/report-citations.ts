// Numbered citations, one format for the engine (which writes it into the stored report) and the
// browser (which reads it back): every citation in the text is `[n](url)`, numbered by first
// appearance, and the report ends with a generated "## Sources" list, one line per number:
// `n. Title — <url>`. Because the numbers are in the stored Markdown, the viewer, the API's report
// and the download all show the same ones.

export interface NumberedSource {
  n: number;
  url: string;
  title: string;
}

export const SOURCES_HEADING = "## Sources";

const MARKER = /^(source|sources|link|ref|here|\d+|\[\d+\])?$/i;
/**
 * The words a model heads its own list of sources with, or labels a line of citations with ("Sources: [1], [2]"),
 * in the languages it is asked to write in (lib/ai/language.ts): a report in German has "## Quellen", one in
 * Chinese "参考资料：". A regular expression's alternatives, longest first.
 */
export const SOURCE_WORDS = [
  "sources cited", "reference list", "works cited", "references", "bibliography", "citations", "sources", "source", "refs", "ref",
  "einzelnachweise", "literaturverzeichnis", "quellenangaben", "quellen", "quelle", "literatur", "referenzen", "belege", "nachweise",
  "références", "bibliographie", "referencias", "bibliografía", "fuentes", "fuente", "riferimenti", "bibliografia", "fonti", "fonte",
  "referências", "fontes", "literatuurlijst", "referenties", "bronnen", "bron", "referenser", "källor", "källa", "referencer",
  "referanser", "kilder", "kilde", "źródła", "źródło", "przypisy", "zdroje", "zdroj", "literatura", "kaynakça", "kaynaklar",
  "referanslar", "daftar pustaka", "referensi", "sumber", "список литературы", "источники", "источник", "ссылки", "джерела",
  "джерело", "посилання", "література", "参考资料", "参考文献", "资料来源", "參考資料", "參考文獻", "資料來源", "来源", "來源", "出处", "出典",
  "情報源", "참고문헌", "참고 자료", "출처", "المصادر", "المراجع",
].join("|");
// A model-written list of sources or references, replaced by the generated one: under a heading ("## References"),
// or under a line of its own that names it ("**References**", "__Sources:__", "References:", "**Quellen:**").
const MODEL_SOURCES = new RegExp(`^(#{1,6})\\s*(?:\\*\\*|__)?\\s*(?:${SOURCE_WORDS})\\s*[:：]?\\s*(?:\\*\\*|__)?\\s*[:：]?\\s*$`, "iu");
const SOURCES_LABEL = new RegExp(`^(?:\\*\\*|__)?\\s*(?:${SOURCE_WORDS})\\s*[:：]?\\s*(?:\\*\\*|__)?\\s*[:：]?\\s*$`, "iu");
/** A line a source list under a label is made of: an entry (a bullet, a number, "[n]"), or a line with a URL. */
const LIST_LINE_OF_SOURCES = /^(?:[-*+]\s|\d{1,3}[.)]\s|\[\^?\w{1,12}\])|https?:\/\//;
// A Markdown link (optionally wrapped in parentheses), an autolink, a bare URL not inside a link, or a bare URL
// in brackets or parentheses, labelled or not ("[https://…]", "(Source: https://…)"), as models cite when they
// do not write a link: the wrapper is the citation's, and goes with it.
const CITATION = /(\(\s*)?\[([^\]\n]*)\]\((https?:\/\/[^)\s]+)(?:\s+"[^"]*")?\)(\s*\))?|<(https?:\/\/[^>\s]+)>|(?<!\]\()(?<![\w/])(https?:\/\/[^\s)<>\]]+)|[[(]\s*(?:(?:sources?|see|via|from|ref(?:erence)?)\s*:\s*)?(https?:\/\/[^\s)<>\]]+)\s*[\])]/gi;

/**
 * Which lines are a model-written source list: under a "Sources"/"References" heading, up to the next heading of
 * its level or above; under such a label line, as long as its lines are entries (or blank).
 */
function modelSourceLines(lines: readonly string[]): boolean[] {
  // The open list's heading level; LABEL for a list under a label line; 0 outside a list.
  const LABEL = 7;
  let level = 0;
  return lines.map((line) => {
    const text = line.trim();
    const heading = /^(#{1,6})\s/.exec(text);
    if (level === LABEL ? heading || (text !== "" && !LIST_LINE_OF_SOURCES.test(text)) : level && heading && heading[1].length <= level) level = 0;
    if (level) return true;
    const titled = MODEL_SOURCES.exec(text);
    if (titled) level = titled[1].length;
    else if (SOURCES_LABEL.test(text)) level = LABEL;
    return level > 0;
  });
}

/** Removes a model-written "Sources"/"References" section (see modelSourceLines). */
export function stripSourcesSection(markdown: string): string {
  const lines = markdown.split("\n");
  const inList = modelSourceLines(lines);
  return lines
    .filter((_, i) => !inList[i])
    .join("\n")
    .replace(/\s+$/, "");
}

/** An entry of a model's reference list: "1. Title — https://…", "[1] https://…", "- [2] Title (https://…)". */
const LIST_ENTRY = /^\s*(?:[-*+]\s+)?(?:\[\^?(\d{1,3})\]|(\d{1,3})[.)])\s*:?\s+.*?<?(https?:\/\/[^\s<>()\]]+)/;
/** A Markdown link reference definition or footnote whose target is a URL: "[1]: https://…", "[^1]: Title, https://…". */
const DEFINITION = /^\s*\[\^?([^\]\s]{1,12})\]:\s.*?<?(https?:\/\/[^\s<>()\]]+)/;
/** A citation by number or footnote in the text, not already a link nor a definition: "[1]", "[1, 3]", "[^2]", "[1][3]". */
const NUMBER_MARKER = /\[([^\[\]\n]{1,60})\](?!\(|:)/g;

/**
 * A report that cites by number with the model's own list of references ("… grew 12% [1]." with "1. Title —
 * https://…" under "## References", or Markdown's "[1]: https://…" and footnotes "[^1]: …"), as a model writing
 * in its own words often does: each marker whose every number names an entry becomes a link to that entry's
 * URL, so that the citation is kept, numbered and checked like any other. The definitions go; the list
 * goes with stripSourcesSection. A report without such a list is returned unchanged.
 */
export function linkReferenceMarkers(markdown: string): string {
  const targets = new Map<string, string>();
  const lines = markdown.split("\n");
  const inList = modelSourceLines(lines);
  const kept = lines.filter((line, i) => {
    const definition = DEFINITION.exec(line);
    if (definition) {
      targets.set(definition[1].toLowerCase(), definition[2].replace(/[.,;:]+$/, ""));
      return false;
    }
    const entry = inList[i] ? LIST_ENTRY.exec(line) : null;
    if (entry) targets.set(entry[1] ?? entry[2], entry[3].replace(/[.,;:]+$/, ""));
    return true;
  });
  if (targets.size === 0) return markdown;
  return kept.join("\n").replace(NUMBER_MARKER, (whole, list: string) => {
    const keys = markerKeys(list);
    const urls = keys?.map((key) => targets.get(key));
    return urls?.every(Boolean) ? [...new Set(urls)].map((url) => `[source](${url})`).join("") : whole;
  });
}

/**
 * A citation marker by handle as models write it other than "[S2]": full-width or lenticular brackets ("【S2】",
 * "［S2］"), gpt-oss's browsing style ("【2†source】", "【S2†L1-L5】"), a label ("[citation:2]" as DeepSeek writes,
 * "[Source 2]", "[source: S2]"), a range ("[S2-S4]"), handles apart by spaces ("[S2 S3]"), a footnote ("[^S2]", "^[S2]"),
 * parentheses ("(S2)", "(S2, S3)", "(Source: S2)"), a link to the handle ("[S2](S2)", "[Battery prices](S2)"), doubled
 * brackets ("[[S2]]").
 */
const OTHER_MARKER = /(\^\[|\[\[|【|〔|［|\[\^|\[|\()([^[\]()【】〔〕［］\n]{1,80})(\]\]|】|〕|］|\]|\))((?<=\])\(\s*\[?[A-Za-z]{1,3}\d{1,4}\]?\s*\))?/g;
const CLOSERS: Record<string, string> = { "^[": "]", "[[": "]]", "【": "】", "〔": "〕", "［": "］", "[^": "]", "[": "]", "(": ")" };
const MARKER_LABEL = /^(?:citations?|cite|sources?|refs?\.?|references?|snippets?|items?)\s*[:#]?\s*/i;

/** The handle numbers a marker's text names ("S2, S3", "citation:2", "S2–S4", "2†source"), or undefined when a part names none. */
function markerNumbers(inner: string, prefix: string, { bareNumbers }: { bareNumbers: boolean }): number[] | undefined {
  const numbers: number[] = [];
  const handle = new RegExp(`^${prefix}(\\d{1,4})$`, "i");
  const range = new RegExp(`^(?:${prefix})?(\\d{1,4})\\s*[-–—]\\s*(?:${prefix})?(\\d{1,4})$`, "i");
  for (const raw of inner.split(/[,;]|\band\b/)) {
    // gpt-oss's "2†source", "S2†L1-L5": the handle before the dagger.
    let part = raw.split("†")[0].trim();
    if (!part) continue;
    const labelled = MARKER_LABEL.test(part);
    part = part.replace(MARKER_LABEL, "").trim();
    const words = part.split(/\s+/);
    const spans = range.exec(part);
    if (spans && (labelled || handle.test(part.split(/\s*[-–—]\s*/)[0]))) {
      const [from, to] = [Number(spans[1]), Number(spans[2])];
      if (to < from || to - from >= MAX_RANGE) return undefined;
      for (let n = from; n <= to; n++) numbers.push(n);
    } else if (words.length > 1 && words.every((w) => handle.test(w))) numbers.push(...words.map((w) => Number(handle.exec(w)![1])));
    else if (handle.test(part)) numbers.push(Number(handle.exec(part)![1]));
    else if (/^\d{1,4}$/.test(part) && (labelled || bareNumbers)) numbers.push(Number(part));
    else return undefined;
  }
  return numbers.length > 0 ? numbers : undefined;
}

/**
 * Citation markers by handle written another way (OTHER_MARKER) as "[S2, S3]", the form every engine reads,
 * when each handle they name was shown (`count` handles: S1 … Sn). Anything else is left as it is: prose in
 * parentheses, a link, a handle that was never shown, a bare number in brackets (a number of the model's own
 * list: linkReferenceMarkers' business) — unless `bareNumbers`, where numbers in a gpt-oss dagger marker or a
 * label already say they are the sources shown ("【3†source】" is S3).
 */
export function canonicalCitations(text: string, prefix: string, count: number): string {
  if (count === 0) return text;
  return text.replace(OTHER_MARKER, (whole, open: string, inner: string, close: string, target: string | undefined, offset: number) => {
    if (CLOSERS[open] !== close) return whole;
    // "[Source 2](https://…)" is a link: its words stay.
    if (!target && open !== "(" && text[offset + whole.length] === "(") return whole;
    // "(S2)" right after a link's text is that link's target, not a citation: "[text](S2)" is handled by its "[".
    // And one that goes on into the sentence names something of the text's own ("Eq. (S3) gives the rate"):
    // a citation in parentheses ends the claim (punctuation, the line's end, another marker after it).
    if (open === "(" && (text[offset - 1] === "]" || !/^(?:[ \t]*(?:$|\n|[.,;:!?)\]]|[[(【]))/.test(text.slice(offset + whole.length)))) return whole;
    const dagger = inner.includes("†");
    const numbers = markerNumbers(inner, prefix, { bareNumbers: dagger && open !== "(" });
    if (!numbers || numbers.some((n) => n < 1 || n > count)) {
      // Words linked to a handle ("[Battery prices](S2)"): the words stay, cited.
      const linked = target && open === "[" ? markerNumbers(target.slice(1, -1).replace(/[[\]]/g, ""), prefix, { bareNumbers: false }) : undefined;
      return linked && linked.every((n) => n >= 1 && n <= count) ? `${inner} [${linked.map((n) => `${prefix}${n}`).join(", ")}]` : whole;
    }
    const canonical = `[${[...new Set(numbers)].map((n) => `${prefix}${n}`).join(", ")}]`;
    // A marker already in the canonical form, and not a link to a handle, is left alone.
    return canonical === whole ? whole : canonical;
  });
}

/** Most numbers one range in a marker names ("[1–30]" is no citation of thirty entries). */
const MAX_RANGE = 10;

/** The entries a marker names: "1, 3", "^2", "1–3" (any dash), "Source 2", "ref. 4"; undefined when a part is no key. */
function markerKeys(list: string): string[] | undefined {
  const keys: string[] = [];
  for (const raw of list.split(/[,;]/)) {
    const part = raw.trim().replace(/^(?:sources?|refs?\.?|references?|citations?)\s*/i, "").replace(/^\^/, "").toLowerCase();
    const range = /^(\d{1,3})\s*[-–—]\s*(\d{1,3})$/.exec(part);
    if (range) {
      const [from, to] = [Number(range[1]), Number(range[2])];
      if (to < from || to - from >= MAX_RANGE) return undefined;
      for (let n = from; n <= to; n++) keys.push(String(n));
    } else if (/^\w{1,12}$/.test(part)) keys.push(part);
    else return undefined;
  }
  return keys;
}

function fallbackTitle(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname.replace(/^www\./, "")}${u.pathname === "/" ? "" : u.pathname}`;
  } catch {
    return url;
  }
}

/** A title safe on one Markdown list line: no line breaks, no characters that would start markup. */
/** A numbered source list's line: "n. Title — <url>". */
export function sourceListLine(s: NumberedSource): string {
  return `${s.n}. ${escapeTitle(s.title)} — <${s.url}>`;
}

function escapeTitle(title: string): string {
  return title.replace(/\s+/g, " ").trim().replace(/([\\`*_[\]<>])/g, "\\$1");
}

function unescapeTitle(title: string): string {
  return title.replace(/\\([\\`*_[\]<>])/g, "$1");
}

/**
 * Numbers every citation (by first appearance) and appends the numbered source list with the
 * pages' titles. Expects citations already checked (verifyCitations): every http(s) URL left is a
 * source. A descriptive link keeps its words and gets the number after them.
 */
export function numberCitations(markdown: string, titles: ReadonlyMap<string, string | null>): { markdown: string; sources: NumberedSource[] } {
  const numbers = new Map<string, number>();
  const numberOf = (raw: string) => {
    const url = raw.replace(/[.,;:!?]+$/, "");
    let n = numbers.get(url);
    if (!n) numbers.set(url, (n = numbers.size + 1));
    return { n, url, rest: raw.slice(url.length) };
  };
  const body = stripSourcesSection(markdown).replace(
    CITATION,
    (whole, open: string | undefined, text: string | undefined, linkUrl: string | undefined, close: string | undefined, auto: string | undefined, bare: string | undefined, wrapped: string | undefined) => {
      if (linkUrl) {
        const { n, url } = numberOf(linkUrl);
        const cite = `[${n}](${url})`;
        if (MARKER.test((text ?? "").trim())) return open && close ? cite : `${open ?? ""}${cite}${close ?? ""}`;
        return `${open ?? ""}${text} ${cite}${close ?? ""}`;
      }
      if (wrapped) return `[${numberOf(wrapped).n}](${numberOf(wrapped).url})`;
      const { n, url, rest } = numberOf(auto ?? bare ?? whole);
      return `[${n}](${url})${rest}`;
    },
  );
  const sources = [...numbers.entries()].map(([url, n]) => ({ n, url, title: titles.get(url)?.trim() || fallbackTitle(url) }));
  if (sources.length === 0) return { markdown: `${body}\n`, sources };
  const list = sources.map(sourceListLine);
  return { markdown: `${body}\n\n${SOURCES_HEADING}\n\n${list.join("\n")}\n`, sources };
}

const LIST_LINE = /^(\d+)\. (.*) — <(https?:\/\/[^>\s]+)>$/;

/**
 * Splits a stored report into its text and its numbered source list. A report written before
 * numbering (or without citations) has no list: `sources` is empty and `body` is the whole report.
 */
export function splitNumberedSources(markdown: string): { body: string; sources: NumberedSource[] } {
  const at = markdown.lastIndexOf(`\n${SOURCES_HEADING}\n`);
  if (at === -1) return { body: markdown, sources: [] };
  const lines = markdown.slice(at + SOURCES_HEADING.length + 2).split("\n").filter((l) => l.trim());
  const sources: NumberedSource[] = [];
  for (const line of lines) {
    const m = LIST_LINE.exec(line.trim());
    if (!m) return { body: markdown, sources: [] };
    sources.push({ n: Number(m[1]), title: unescapeTitle(m[2]), url: m[3] });
  }
  return { body: markdown.slice(0, at).replace(/\s+$/, "") + "\n", sources };
}

/** Sources a report cites: its numbered list, or for a report written before numbering, its distinct linked URLs. */
export function citedSourceCount(markdown: string): number {
  const { sources } = splitNumberedSources(markdown);
  if (sources.length > 0) return sources.length;
  return new Set([...markdown.matchAll(/\]\((https?:\/\/[^)\s]+)\)/g)].map((m) => m[1])).size;
}
