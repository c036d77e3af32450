// The LaTeX paper of a report (the seed's paper generation): abstract, introduction, methods (the
// research process as it ran), results (the report, with \cite keys into references.bib),
// discussion, limitations and references. Built from what the run stored, without another LLM
// call: the paper says nothing the verified report and the run's records do not. Its references keep
// the report's numbers (unsrtnat: in order of first citation), its discussion states the claims the
// check did not find supported, and it is built for the engine that will compile it (preamble.ts).
import { markdownBlocks, plainOf, type Block } from "../blocks";
import { percent, type ExportDocument } from "../document";
import { bibKeys, bibtex, type BibSource } from "./bibtex";
import { blocksToLatex } from "./blocks";
import type { TexEngine } from "./compile";
import { latex, typeset, type Typeset } from "./escape";
import { preamble } from "./preamble";
import { fontFor, LATIN_MODERN_MAX } from "../fonts";
import { inWinAnsi } from "../latin";

/** Whether LuaLaTeX will show a character: Latin Modern has it, or a font of the server's stack. */
const shown = (ch: string) => (ch.codePointAt(0) ?? 0) < LATIN_MODERN_MAX || inWinAnsi(ch) || /[\p{Cf}\p{Mn}\uFE00-\uFE0F]/u.test(ch) || fontFor(ch) !== null;

/** A table of the methods or results: a caption, a header and rows of plain text. */
export interface PaperTable {
  caption: string;
  header: string[];
  rows: string[][];
}

export interface PaperSection {
  paragraphs: string[];
  tables: PaperTable[];
}

/** A claim as the citation check left it. */
export interface CheckedClaim {
  sentence: string;
  verdict: string;
  note: string | null;
}

export interface PaperInput {
  doc: ExportDocument;
  /** Who and what wrote it, for \author. */
  author: string;
  /** The researcher's answers to the clarifying questions. */
  clarifications: { question: string; answer: string }[];
  methods: PaperSection;
  /** Results beyond the report's own text (Deep Research: discoveries, analysis tables). */
  results: PaperSection;
  /** Plain statements from the run's records: what failed, what is uncertain. */
  limitations: string[];
  /** Verification in words, for the discussion. */
  verification: string[];
  /** The citation check: its status ("done" when it finished) and its final verdicts; null when it never ran. */
  check: { status: string; claims: CheckedClaim[] } | null;
  sources: BibSource[];
}

export interface BuiltPaper {
  tex: string;
  bib: string;
  /** Characters shown as "?" (no font or engine for them); the paper carries a note saying so. */
  replaced: Set<string>;
}

const DISCUSSION = /discussion|implication|conclusion|open question|outlook|recommendation|caveat|uncertaint/i;
const ABSTRACT_MAX = 1200;
/** The discussion lists at most this many claims of each kind; the viewer has them all. */
const CLAIMS_LISTED = 40;

function tableLatex(table: PaperTable, t: Typeset): string {
  const columns = Math.max(1, table.header.length);
  const width = (0.95 / columns).toFixed(3);
  const row = (cells: string[]) => Array.from({ length: columns }, (_, c) => latex(cells[c] ?? "", t)).join(" & ") + " \\\\";
  return [
    "\\begin{center}\\small",
    `\\begin{longtable}{${Array.from({ length: columns }, () => `p{${width}\\linewidth}`).join("")}}`,
    `\\caption{${latex(table.caption, t)}}\\\\`,
    "\\hline",
    row(table.header),
    "\\hline\\endhead",
    ...table.rows.map(row),
    "\\hline",
    "\\end{longtable}",
    "\\end{center}",
  ].join("\n");
}

const section = (s: PaperSection, t: Typeset) => [...s.paragraphs.map((p) => latex(p, t)), ...s.tables.map((table) => tableLatex(table, t))].join("\n\n");

/** The report's blocks split: its discussion-like sections go to the Discussion, the rest are the results. */
function splitReport(blocks: Block[]): { results: Block[]; discussion: Block[] } {
  const results: Block[] = [];
  const discussion: Block[] = [];
  let inDiscussion = false;
  for (const b of blocks) {
    if (b.kind === "heading" && b.level <= 2) inDiscussion = DISCUSSION.test(plainOf(b.inlines));
    (inDiscussion ? discussion : results).push(b);
  }
  return { results, discussion };
}

function abstractOf(input: PaperInput, blocks: Block[]): string {
  const first = blocks.find((b) => b.kind === "paragraph");
  const summary = first && first.kind === "paragraph" ? plainOf(first.inlines.filter((i) => !(i.href && /^\d+$/.test(i.text.trim())))) : "";
  const rate = input.doc.supportRate;
  const verification = rate === null ? "" : ` An automatic check against the stored text of the cited sources found ${percent(rate)} of the report's claims fully supported.`;
  const text = `This paper reports an automated literature research on the question: ${input.doc.question.trim()} ${summary}${verification}`;
  return text.length > ABSTRACT_MAX ? `${text.slice(0, text.lastIndexOf(" ", ABSTRACT_MAX))} \u2026` : text;
}

/** How the report's citations were checked, or that they were not, for the introduction. */
function checkedHow(check: PaperInput["check"]): string {
  if (check?.status === "done") return "every cited sentence was then checked against the stored text of its sources (Section~\\ref{sec:methods})";
  if (!check) return "its citations were not checked against the sources' text: the check did not run for this report";
  return `its citations were not fully checked against the sources' text: the check did not finish (it ended ${latex(check.status)}), so the report stands as written`;
}

/** The discussion's account of the check: the claims it did not find supported, in its words. */
function checkFindings(check: PaperInput["check"], t: Typeset): string[] {
  if (check?.status !== "done") return [];
  const listed = (verdict: string, intro: string) => {
    const claims = check.claims.filter((c) => c.verdict === verdict);
    if (!claims.length) return "";
    const items = claims.slice(0, CLAIMS_LISTED).map((c) => `\\item ${latex(c.sentence, t)}${c.note ? ` \\emph{(${latex(c.note, t)})}` : ""}`);
    const more = claims.length > CLAIMS_LISTED ? `\n\\item ${latex(`… and ${claims.length - CLAIMS_LISTED} more, marked in the report viewer.`, t)}` : "";
    return `${latex(intro.replace("{n}", String(claims.length)), t)}\n\\begin{itemize}\n${items.join("\n")}${more}\n\\end{itemize}`;
  };
  return [
    listed("unsupported", "The check judged {n} of the report's claims not supported by their cited sources; they stand in the report as follows:"),
    listed("unverified", "For {n} of the report's claims the check reached no usable verdict; they are kept as written and are not verified:"),
  ].filter(Boolean);
}

export function buildPaper(input: PaperInput, engine: TexEngine = "pdflatex"): BuiltPaper {
  const t = engine === "lualatex" ? typeset(true, shown) : typeset(false);
  const tx = (text: string) => latex(text, t);
  const keys = bibKeys(input.sources);
  const keyOf = new Map(input.sources.map((s) => [s.url, keys.get(s.n) as string]));
  const blocks = markdownBlocks(input.doc.body);
  const { results, discussion } = splitReport(blocks);
  const clarifications = input.clarifications.filter((c) => c.answer.trim());
  const cite = { keyOf, typeset: t };
  const intro = [
    `The question this research set out to answer was: \\emph{${tx(input.doc.question.trim())}}`,
    clarifications.length
      ? `Before the search began, the researcher answered ${clarifications.length} clarifying question${clarifications.length === 1 ? "" : "s"}:\n\\begin{itemize}\n${clarifications.map((c) => `\\item ${tx(c.question)} \\emph{${tx(c.answer)}}`).join("\n")}\n\\end{itemize}`
      : "",
    `The findings below were gathered and written by Quarry, a research agent that searches the web, reads the pages it finds and writes a cited report; ${checkedHow(input.check)}.`,
  ].filter(Boolean);
  // The body first: what it could not typeset is known only once it is written, and the front matter says so.
  const body = [
    `\\begin{abstract}\n${tx(abstractOf(input, blocks))}\n\\end{abstract}`,
    `\\section{Introduction}\n${intro.join("\n\n")}`,
    `\\section{Methods}\\label{sec:methods}\n${section(input.methods, t)}`,
    `\\section{Results}\n${[section(input.results, t), blocksToLatex(results, cite)].filter(Boolean).join("\n\n")}`,
    `\\section{Discussion}\n${[blocksToLatex(discussion, cite), ...input.verification.map(tx), ...checkFindings(input.check, t)].filter(Boolean).join("\n\n") || tx("The report draws no further conclusions than its results.")}`,
    `\\section{Limitations}\n${input.limitations.length ? `\\begin{itemize}\n${input.limitations.map((l) => `\\item ${tx(l)}`).join("\n")}\n\\end{itemize}` : tx("The run recorded no failures.")}`,
    input.sources.length ? "\\bibliographystyle{unsrtnat}\n\\bibliography{references}" : "",
  ];
  const bib = bibtex(input.sources, t);
  const title = [`\\title{${tx(input.doc.title)}}`, `\\author{${tx(input.author)}}`, `\\date{${tx(input.doc.date)}}`];
  const tex = [
    ...preamble(engine, [input.doc.title, input.doc.question, input.doc.body, ...input.sources.map((s) => s.title), JSON.stringify(input.methods), JSON.stringify(input.results), ...input.limitations, ...(input.check?.claims.map((c) => c.sentence) ?? [])].join("\n")),
    ...title,
    "\\begin{document}",
    "\\maketitle",
    ...replacedNote(t, engine),
    ...body,
    "\\end{document}",
    "",
  ]
    .filter(Boolean)
    .join("\n\n");
  return { tex, bib, replaced: t.replaced };
}

/** The visible note on characters shown as "?", under the title. */
function replacedNote(t: Typeset, engine: TexEngine): string[] {
  if (t.replaced.size === 0) return [];
  const examples = [...t.replaced].slice(0, 5).map((ch) => `U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`);
  const why =
    engine === "pdflatex"
      ? "this server compiles with pdflatex, whose fonts cover Latin-1 only (with LuaLaTeX and fontspec, and fonts such as Debian's fonts-noto-core and fonts-noto-cjk, the paper keeps every script)"
      : "no font on this server has them (Debian's fonts-noto-core and fonts-noto-cjk cover most scripts)";
  const note = `Note: ${t.replaced.size} distinct character${t.replaced.size === 1 ? "" : "s"} of the report (${examples.join(", ")}${t.replaced.size > 5 ? ", …" : ""}) ${t.replaced.size === 1 ? "is" : "are"} shown as "?": ${why}. The Markdown and DOCX exports keep them.`;
  return [`\\begin{center}\\small\\itshape\n${latex(note)}\n\\end{center}`];
}
