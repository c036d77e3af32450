// The paper as a download: paper.tex and references.bib, and paper.pdf when this server compiled
// it, in one zip. A compile that fails never fails the download: the zip then holds the sources, the
// log and a README.txt naming the reason. Built once per report version (cache.ts).
import { strToU8, zipSync } from "fflate";
import { exportKey, cachedExport } from "../cache";
import type { ExportFile } from "../render";
import { compilePaper, latexEngine, type Compiled, type TexEngine } from "./compile";
import { buildPaper, type BuiltPaper, type PaperInput } from "./paper";

export interface PaperBuild {
  paper: BuiltPaper;
  engine: TexEngine;
  /** Null without a LaTeX engine on this server. */
  compiled: Compiled | null;
  /** Why the first engine's attempt failed, when another engine then compiled the paper. */
  fellBack: string | null;
}

/**
 * The paper built and compiled with this server's engine. LuaLaTeX's attempt failing (a font it
 * could not load, say), pdflatex tries: its paper shows "?" for what it cannot typeset, and says so.
 */
export async function buildAndCompile(input: PaperInput): Promise<PaperBuild> {
  const engine = await latexEngine();
  if (!engine) {
    // No engine here: the sources for one elsewhere, Unicode if pdflatex would lose characters.
    const plain = buildPaper(input, "pdflatex");
    return plain.replaced.size ? { paper: buildPaper(input, "lualatex"), engine: "lualatex", compiled: null, fellBack: null } : { paper: plain, engine: "pdflatex", compiled: null, fellBack: null };
  }
  const paper = buildPaper(input, engine);
  const compiled = await compilePaper(paper.tex, paper.bib, engine);
  if (compiled.pdf || engine === "pdflatex") return { paper, engine, compiled, fellBack: null };
  const plain = buildPaper(input, "pdflatex");
  const second = await compilePaper(plain.tex, plain.bib, "pdflatex").catch(() => null);
  return second?.pdf ? { paper: plain, engine: "pdflatex", compiled: second, fellBack: compiled.error } : { paper, engine, compiled, fellBack: null };
}

function readme(build: PaperBuild): string | null {
  const { engine, compiled, fellBack } = build;
  const how = `To compile it: ${engine} paper && bibtex paper && ${engine} paper && ${engine} paper`;
  if (!compiled) return `This server has no LaTeX engine, so the zip holds the paper's sources only.\n${how}\n`;
  if (!compiled.pdf) return `The paper could not be compiled on this server: ${compiled.error}.\nThe sources are here with LaTeX's log (paper.log).\n${how}\n`;
  if (fellBack) return `LuaLaTeX could not compile the paper (${fellBack}); this paper.tex and paper.pdf are pdflatex's, which shows characters outside Latin-1 as "?".\n`;
  return null;
}

/** The zip of a build: the sources, the PDF or else the log, and a README when there is something to say. */
export function zipOfBuild(build: PaperBuild, fileStem: string): ExportFile {
  const files: Record<string, Uint8Array> = { "paper.tex": strToU8(build.paper.tex), "references.bib": strToU8(build.paper.bib) };
  if (build.compiled?.pdf) files["paper.pdf"] = new Uint8Array(build.compiled.pdf);
  else if (build.compiled) files["paper.log"] = strToU8(build.compiled.log);
  const note = readme(build);
  if (note) files["README.txt"] = strToU8(note);
  return { body: zipSync(files, { level: 6 }), contentType: "application/zip", fileName: `${fileStem}-paper.zip` };
}

export async function paperZip(input: PaperInput): Promise<ExportFile> {
  return cachedExport(exportKey("tex", input, (await latexEngine()) ?? "none"), async () => zipOfBuild(await buildAndCompile(input), input.doc.fileStem));
}

/** The compiled paper alone, or null when this server could not compile it. */
export async function paperPdf(input: PaperInput): Promise<ExportFile | null> {
  const { compiled } = await buildAndCompile(input);
  return compiled?.pdf ? { body: new Uint8Array(compiled.pdf), contentType: "application/pdf", fileName: `${input.doc.fileStem}-paper.pdf` } : null;
}
