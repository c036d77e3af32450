// Compiles the paper when the server has a LaTeX engine (pdflatex + bibtex, e.g. Debian's
// texlive-latex-base): in a fresh temporary directory, without shell escape, each step with a time
// limit. No engine: null, and the zip holds the sources only.
import { execFile } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);
const STEP_MS = 60_000;

let available: Promise<boolean> | null = null;

/** Whether pdflatex and bibtex run here (checked once per process). */
export function latexAvailable(): Promise<boolean> {
  available ??= Promise.all([run("pdflatex", ["-version"], { timeout: 10_000 }), run("bibtex", ["-version"], { timeout: 10_000 })]).then(
    () => true,
    () => false,
  );
  return available;
}

export interface Compiled {
  pdf: Buffer;
  log: string;
}

export async function compilePaper(tex: string, bib: string): Promise<Compiled | null> {
  if (!(await latexAvailable())) return null;
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "quarry-paper-"));
  try {
    await fs.writeFile(path.join(dir, "paper.tex"), tex);
    await fs.writeFile(path.join(dir, "references.bib"), bib);
    const latex = () => run("pdflatex", ["-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape", "paper.tex"], { cwd: dir, timeout: STEP_MS, maxBuffer: 8 << 20 });
    await latex();
    // A paper without citations has no \bibdata: bibtex would fail, and there is nothing for it to do.
    if (/\\bibdata/.test(await fs.readFile(path.join(dir, "paper.aux"), "utf8"))) await run("bibtex", ["paper"], { cwd: dir, timeout: STEP_MS });
    await latex();
    await latex();
    return { pdf: await fs.readFile(path.join(dir, "paper.pdf")), log: await fs.readFile(path.join(dir, "paper.log"), "utf8") };
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
