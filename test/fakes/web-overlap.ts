// The overlapping fixture web of the benchmark (issue 57): a few dozen article pages at /overlap/<n>-<slug>
// that every query's results are drawn from, the most popular first (a Zipf-like weight), so that a tree's
// queries share most of their results as on the real web — the 110 queries of a (5, 5) research reach
// 22 distinct pages (the default 22-page web), each read by many queries. Each page holds a topic's facts at the
// top of its article, then paragraphs of text: most pages 2–4 KB of text, and three long reads of 40–60 KB in the
// less popular half (sized so that the peer, which reads each query's first five results whole, spends about what
// it spent in issue 57's held-out world: ~0.6M prompt tokens at (5, 5)). Generated deterministically from the
// topics, so that planted facts stay measurable.
import { hashString, seededRandom } from "./random";
import { escapeHtml, renderArticle, slugify, type Template } from "./web-templates";
import { TOPICS } from "./web-topics";

export interface OverlapPage {
  path: string;
  title: string;
  snippet: string;
  facts: string[];
  /** Paragraphs of text after the facts. */
  paragraphs: number;
  index: number;
  template: Template;
}

/** How sharply popularity falls with rank: page i is drawn with weight 1 / (i + 1)^SKEW. */
const SKEW = 2;

const TEMPLATES: Template[] = ["news", "docs", "blog", "forum"];
const WORDS = (
  "the a of and in to for on with by from at as its their this that which more than less about after before during " +
  "report data analysis regional national market policy energy water transport housing health budget survey study " +
  "programme evidence review outcome trend pattern context approach method sample region sector network system " +
  "operator council agency committee researchers officials residents users customers households companies projects " +
  "said noted found showed expected planned reviewed published announced compared reported suggested argued described"
).split(" ");

function sentence(next: () => number): string {
  const n = 12 + Math.floor(next() * 14);
  const words = Array.from({ length: n }, () => WORDS[Math.floor(next() * WORDS.length)]);
  return `${words[0][0].toUpperCase()}${words[0].slice(1)} ${words.slice(1).join(" ")}.`;
}

/** Deterministic page list; page i's topic, facts and length depend on i only. */
export function overlapWebPages(count = 22): OverlapPage[] {
  return Array.from({ length: count }, (_, index) => {
    const next = seededRandom(hashString(`overlap-web-${index}`));
    const topic = TOPICS[index % TOPICS.length];
    const start = Math.floor(next() * Math.max(1, topic.facts.length - 6));
    const facts = topic.facts.slice(start, start + 6);
    const title = `${topic.titles[index % 2]} (${["long read", "review", "dossier", "guide", "field notes", "explainer"][index % 6]} ${index + 1})`;
    // The long reads are not among the most popular pages: the peer reads its results' first five whole.
    const long = index >= 10 && index % 5 === 1;
    const paragraphs = long ? 60 + Math.floor(next() * 90) : Math.floor(next() * 5);
    return { path: `/overlap/${index + 1}-${slugify(title)}`, title, snippet: facts[0], facts, paragraphs, index, template: TEMPLATES[index % TEMPLATES.length] };
  });
}

/** The page's HTML: an article of the topic's template, its facts first, then its long-read paragraphs inside the article. */
export function renderOverlapPage(page: OverlapPage, all: OverlapPage[]): string {
  const topic = TOPICS[page.index % TOPICS.length];
  const related = [5, 11, 17].map((k) => all[(page.index + k) % all.length]).map((p) => ({ path: p.path, title: p.title }));
  const html = renderArticle({ topic, title: page.title, facts: page.facts, template: page.template, index: page.index, related });
  const next = seededRandom(hashString(`overlap-web-text-${page.index}`));
  const body = Array.from({ length: page.paragraphs }, (_, i) => {
    const heading = i > 0 && i % 12 === 0 ? `<h2>${escapeHtml(`${topic.sections[(i / 12) % 3]}, continued`)}</h2>\n` : "";
    return `${heading}<p>${escapeHtml(Array.from({ length: 3 + Math.floor(next() * 3) }, () => sentence(next)).join(" "))}</p>`;
  }).join("\n");
  return html.replace("</article>", `<section class="long-read">\n${body}\n</section>\n</article>`);
}

/**
 * `want` distinct pages for a query, drawn by popularity (page i with weight 1 / (i + 1)^SKEW) with the
 * query's own seeded draw: popular pages come up for most queries, the tail for a few.
 */
export function pickOverlapPages(pages: readonly OverlapPage[], want: number, next: () => number): OverlapPage[] {
  const pool = pages.map((page, i) => ({ page, weight: 1 / (i + 1) ** SKEW }));
  const picked: OverlapPage[] = [];
  while (picked.length < want && pool.length > 0) {
    const total = pool.reduce((n, p) => n + p.weight, 0);
    let r = next() * total;
    let at = 0;
    while (at < pool.length - 1 && r >= pool[at].weight) r -= pool[at++].weight;
    picked.push(pool.splice(at, 1)[0].page);
  }
  return picked;
}
