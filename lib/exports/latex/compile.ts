// Compiles the paper when the server has a LaTeX engine: LuaLaTeX with fontspec (any script the
// server's fonts cover; Debian's texlive-luatex and texlive-latex-recommended) or else pdflatex
// (texlive-latex-base), with bibtex, in a fresh temporary directory, without shell escape, each
// step with a time limit, and at most EXPORT_COMPILE_CONCURRENCY compiles at once in this process. A compile that fails is no server
// error: the result names the reason and carries the log, and the zip ships the sources with them.
import { execFile } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { Semaphore } from "../../concurrency";
import { getEnv } from "../../env";

const run = promisify(execFile);
const STEP_MS = 60_000;

export type TexEngine = "lualatex" | "pdflatex";

let detected: Promise<TexEngine | null> | null = null;
const works = (cmd: string, args: string[]) => run(cmd, args, { timeout: 10_000 }).then(
  () => true,
  () => false,
);

/** The engine this server compiles with (checked once per process): LuaLaTeX when it has fontspec, else pdflatex, else none. */
export function latexEngine(): Promise<TexEngine | null> {
  detected ??= (async () => {
    if (!(await works("bibtex", ["-version"]))) return null;
    // fontspec (texlive-latex-recommended) and luaotfload (texlive-luatex) both, or LuaLaTeX cannot load a font.
    const found = await run("kpsewhich", ["fontspec.sty", "luaotfload-main.lua"], { timeout: 10_000 }).then((r) => r.stdout.trim().split("\n").length === 2, () => false);
    if (found && (await works("lualatex", ["-version"]))) return "lualatex";
    return (await works("pdflatex", ["-version"])) ? "pdflatex" : null;
  })();
  return detected;
}

/** Whether this server can compile the paper at all. */
export async function latexAvailable(): Promise<boolean> {
  return (await latexEngine()) !== null;
}

export interface Compiled {
  engine: TexEngine;
  /** Null when the compile failed: `error` says why. */
  pdf: Buffer | null;
  error: string | null;
  /** LaTeX's log (and BibTeX's, when it ran). */
  log: string;
}

const globalForCompiles = globalThis as unknown as { quarryPaperCompiles?: Semaphore };
/** The process's compile slots (EXPORT_COMPILE_CONCURRENCY): compiles beyond them wait. */
export function compiles(): Semaphore {
  return (globalForCompiles.quarryPaperCompiles ??= new Semaphore(getEnv().EXPORT_COMPILE_CONCURRENCY));
}

/** The first error LaTeX reported, with the line of paper.tex it stopped at. */
export function firstError(log: string): string | null {
  const match = /^! (.+)$/m.exec(log);
  if (!match) return null;
  const line = /^l\.(\d+)/m.exec(log.slice(match.index))?.[1];
  return `${match[1].trim()}${line ? ` (paper.tex, line ${line})` : ""}`;
}

export async function compilePaper(tex: string, bib: string, engine: TexEngine): Promise<Compiled> {
  const release = await compiles().acquire();
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "quarry-paper-"));
  const read = (name: string) => fs.readFile(path.join(dir, name), "utf8").catch(() => "");
  // BibTeX breaks lines longer than 79 characters with a "%", which a URL would keep.
  const env = { ...process.env, max_print_line: "10000" };
  const step = (cmd: string, args: string[]) => run(cmd, args, { cwd: dir, timeout: STEP_MS, maxBuffer: 16 << 20, env });
  let stage: string = engine;
  try {
    await fs.writeFile(path.join(dir, "paper.tex"), tex);
    await fs.writeFile(path.join(dir, "references.bib"), bib);
    const latex = () => step(engine, ["-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape", "paper.tex"]);
    await latex();
    // A paper without citations has no \bibdata: bibtex would fail, and there is nothing for it to do.
    if (/\\bibdata/.test(await read("paper.aux"))) {
      stage = "bibtex";
      // BibTeX exits 1 for warnings (a missing field): only its errors stop the paper.
      await step("bibtex", ["paper"]).catch((error: { code?: number }) => {
        if (error.code !== 1) throw error;
      });
      stage = engine;
    }
    await latex();
    // A third pass only when the second says references or table widths moved.
    if (/Rerun to get|Label\(s\) may have changed|Table widths have changed|Rerun LaTeX/i.test(await read("paper.log"))) await latex();
    return { engine, pdf: await fs.readFile(path.join(dir, "paper.pdf")), error: null, log: await read("paper.log") };
  } catch (error) {
    const log = [await read("paper.log"), await read("paper.blg")].filter(Boolean).join("\n\n--- bibtex ---\n\n");
    const timedOut = (error as { killed?: boolean }).killed === true;
    const reason = timedOut
      ? `${stage} took longer than ${STEP_MS / 1000} s and was stopped`
      : stage === "bibtex"
        ? `bibtex failed: ${/^(.*error message.*|I couldn't.*|.*---.*)$/m.exec(await read("paper.blg"))?.[1] ?? "see paper.log"}`
        : `${stage} stopped: ${firstError(log) ?? (error as Error).message.split("\n")[0]}`;
    return { engine, pdf: null, error: reason, log };
  } finally {
    release();
    await fs.rm(dir, { recursive: true, force: true });
  }
}
