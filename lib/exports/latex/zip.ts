// The paper as a download: paper.tex and references.bib, and paper.pdf when this server could
// compile it, in one zip.
import { strToU8, zipSync } from "fflate";
import type { ExportFile } from "../render";
import { compilePaper } from "./compile";
import { buildPaper, type PaperInput } from "./paper";

export async function paperZip(input: PaperInput): Promise<ExportFile> {
  const { tex, bib } = buildPaper(input);
  const compiled = await compilePaper(tex, bib);
  const files: Record<string, Uint8Array> = { "paper.tex": strToU8(tex), "references.bib": strToU8(bib) };
  if (compiled) files["paper.pdf"] = new Uint8Array(compiled.pdf);
  return { body: zipSync(files, { level: 6 }), contentType: "application/zip", fileName: `${input.doc.fileStem}-paper.zip` };
}

/** The compiled paper alone, or null when this server has no LaTeX engine. */
export async function paperPdf(input: PaperInput): Promise<ExportFile | null> {
  const { tex, bib } = buildPaper(input);
  const compiled = await compilePaper(tex, bib);
  return compiled ? { body: new Uint8Array(compiled.pdf), contentType: "application/pdf", fileName: `${input.doc.fileStem}-paper.pdf` } : null;
}
