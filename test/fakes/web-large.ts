// A large fixture web for the benchmark: `count` distinct article pages (default 800) at /web/<n>-<slug>,
// generated deterministically from the topics (so planted facts stay measurable), with real-world sizes:
// HTML log-normal around a 90 KB median (8 KB to 900 KB), one page in 40 between 1.1 and 2.6 MB (an
// inline app-state blob and a long comment thread, as heavy real pages carry), and one in 50 slow
// (1.5–3 s before the first byte). Only the pages' metadata is kept; the HTML is rendered per request.
import { hashString, seededRandom } from "./random";
import { escapeHtml, renderArticle, slugify, type Template } from "./web-templates";
import { TOPICS } from "./web-topics";

export interface LargeWebPage {
  path: string;
  title: string;
  snippet: string;
  facts: string[];
  /** The HTML's size in bytes, about. */
  bytes: number;
  /** Extra time before the page answers (ms). */
  slowMs: number;
  index: number;
  template: Template;
}

const TEMPLATES: Template[] = ["news", "docs", "blog", "forum"];
const WORDS = (
  "the a of and in to for on with by from at as its their this that which more than less about after before during " +
  "report data analysis regional national market policy energy water transport housing health budget survey study " +
  "increase decrease growth decline estimate measure figure share percent million billion annual quarterly monthly " +
  "operator council agency committee researchers officials residents users customers households companies projects " +
  "said noted found showed expected planned reviewed published announced compared reported suggested"
).split(" ");

function sentence(next: () => number): string {
  const n = 10 + Math.floor(next() * 16);
  const words = Array.from({ length: n }, () => WORDS[Math.floor(next() * WORDS.length)]);
  return `${words[0][0].toUpperCase()}${words[0].slice(1)} ${words.slice(1).join(" ")}.`;
}

/** Deterministic page list; page i's size and latency depend on i only. */
export function largeWebPages(count: number): LargeWebPage[] {
  return Array.from({ length: count }, (_, index) => {
    const next = seededRandom(hashString(`large-web-${index}`));
    const topic = TOPICS[index % TOPICS.length];
    const start = Math.floor(next() * Math.max(1, topic.facts.length - 5));
    const facts = topic.facts.slice(start, start + 5);
    const title = `${topic.titles[index % 2]} (${["update", "analysis", "briefing", "explainer", "field report"][index % 5]} ${index + 1})`;
    // Box–Muller: log-normal with median 90 KB, sigma 0.9.
    const normal = Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
    const heavy = index % 40 === 17;
    const bytes = heavy ? Math.round(1.1e6 + next() * 1.5e6) : Math.round(Math.min(900_000, Math.max(8_000, 90_000 * Math.exp(0.9 * normal))));
    const slowMs = index % 50 === 23 ? Math.round(1500 + next() * 1500) : 0;
    return { path: `/web/${index + 1}-${slugify(title)}`, title, snippet: facts[0], facts, bytes, slowMs, index, template: TEMPLATES[index % TEMPLATES.length] };
  });
}

/** The page's HTML: an article of the topic's template, padded to its size with page weight real pages carry. */
export function renderLargePage(page: LargeWebPage, all: LargeWebPage[]): string {
  const topic = TOPICS[page.index % TOPICS.length];
  const related = [7, 13, 29].map((k) => all[(page.index + k) % all.length]).map((p) => ({ path: p.path, title: p.title }));
  const html = renderArticle({ topic, title: page.title, facts: page.facts, template: page.template, index: page.index, related });
  const missing = page.bytes - Buffer.byteLength(html);
  if (missing <= 0) return html;
  const next = seededRandom(hashString(`large-web-pad-${page.index}`));
  // About half as an inline JSON state blob (script: not text), half as a comment thread (text outside the article).
  const state: string[] = [];
  let stateBytes = 0;
  while (stateBytes < missing / 2) {
    const entry = JSON.stringify({ id: Math.floor(next() * 1e9).toString(36), text: sentence(next), score: Math.round(next() * 1000) });
    state.push(entry);
    stateBytes += entry.length + 1;
  }
  const comments: string[] = [];
  let commentBytes = 0;
  while (commentBytes < missing - stateBytes) {
    const c = `<div class="comment"><span class="user">reader${Math.floor(next() * 9999)}</span><p>${escapeHtml(sentence(next))} ${escapeHtml(sentence(next))}</p></div>\n`;
    comments.push(c);
    commentBytes += c.length;
  }
  const pad = `<script id="__APP_STATE__" type="application/json">[${state.join(",")}]</script>\n<section class="comments" aria-label="Comments"><h3>Comments</h3>\n${comments.join("")}</section>\n`;
  return html.replace("</body>", `${pad}</body>`);
}
