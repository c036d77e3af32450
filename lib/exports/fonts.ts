// The fonts this server has for scripts beyond Latin-1, found once per process: the files fontconfig
// knows (fc-list), else those under the usual font folders, matched against a list of known families
// in order of preference (Debian's fonts-noto-core, fonts-noto-cjk, fonts-dejavu-core, and the like).
// The PDF export and the LaTeX paper both ask it which font has a character; a character none has is
// shown as "?" with a note in the document.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { create, type Font } from "fontkit";
import { BoundedMap } from "../bounded-map";

export interface FontFace {
  /** A short name, unique in the stack (PDFKit registers the font under it). */
  name: string;
  file: string;
  /** A face of a collection (.ttc), by its PostScript name. */
  face?: string;
  /** The bold weight of the same family, when installed. */
  bold?: { file: string; face?: string };
}

/** Known families, best first: Latin, Greek and Cyrillic; scripts with their own fonts; CJK; broad fallbacks. */
const PREFERRED: [file: string, face?: string][] = [
  ["NotoSans-Regular.ttf"],
  ["NotoNaskhArabic-Regular.ttf"],
  ["NotoSansArabic-Regular.ttf"],
  ["NotoSansHebrew-Regular.ttf"],
  ...["Devanagari", "Bengali", "Gurmukhi", "Gujarati", "Oriya", "Tamil", "Telugu", "Kannada", "Malayalam", "Sinhala", "Thai", "Lao", "Khmer", "Myanmar", "Georgian", "Armenian", "Ethiopic", "Syriac", "Thaana"].map(
    (script): [string] => [`NotoSans${script}-Regular.ttf`],
  ),
  ["NotoSansCJK-Regular.ttc", "NotoSansCJKsc-Regular"],
  ["NotoSansCJKsc-Regular.otf"],
  ["NotoSansSC-Regular.otf"],
  ["wqy-microhei.ttc", "WenQuanYiMicroHei"],
  ["DroidSansFallbackFull.ttf"],
  ["DejaVuSans.ttf"],
  ["NotoSansSymbols-Regular.ttf"],
  ["NotoSansSymbols2-Regular.ttf"],
  ["NotoSansMath-Regular.ttf"],
  ["FreeSans.ttf"],
];
const BOLD: Record<string, [string, string?]> = {
  "NotoSans-Regular.ttf": ["NotoSans-Bold.ttf"],
  "NotoNaskhArabic-Regular.ttf": ["NotoNaskhArabic-Bold.ttf"],
  "NotoSansHebrew-Regular.ttf": ["NotoSansHebrew-Bold.ttf"],
  "NotoSansCJK-Regular.ttc": ["NotoSansCJK-Bold.ttc", "NotoSansCJKsc-Bold"],
  "DejaVuSans.ttf": ["DejaVuSans-Bold.ttf"],
};
const FOLDERS = ["/usr/share/fonts", "/usr/local/share/fonts", "/usr/share/texmf/fonts/opentype", path.join(process.env.HOME ?? "/nonexistent", ".fonts")];
/** A path TeX and fontspec read as it is (no spaces, braces or other specials). */
const PLAIN_PATH = /^[A-Za-z0-9/._+-]+$/;

/** Every font file on the server, by file name (the first found of each name). */
function fontFiles(): Map<string, string> {
  const byName = new Map<string, string>();
  const add = (file: string) => {
    if (PLAIN_PATH.test(file) && !byName.has(path.basename(file))) byName.set(path.basename(file), file);
  };
  try {
    for (const line of execFileSync("fc-list", [":", "file"], { encoding: "utf8", timeout: 10_000 }).split("\n")) add(line.replace(/:\s*$/, "").trim());
  } catch {
    // No fontconfig: the usual folders, a few levels deep.
    const walk = (dir: string, depth: number) => {
      let entries: fs.Dirent[] = [];
      try {
        entries = fs.readdirSync(dir, { withFileTypes: true });
      } catch {
        return;
      }
      for (const e of entries) {
        if (e.isDirectory() && depth < 4) walk(path.join(dir, e.name), depth + 1);
        else if (/\.(ttf|otf|ttc)$/i.test(e.name)) add(path.join(dir, e.name));
      }
    };
    for (const dir of FOLDERS) walk(dir, 0);
  }
  return byName;
}

/** The server's fonts beyond Latin-1, best first (empty: none installed). */
export function fontStack(): FontFace[] {
  const cached = globalForFonts.quarryFontStack;
  if (cached) return cached;
  const files = fontFiles();
  const stack: FontFace[] = [];
  const known = new Set(PREFERRED.map(([file]) => file));
  const add = (file: string, face?: string) => {
    const found = files.get(file);
    if (!found) return;
    const bold = BOLD[file] && files.get(BOLD[file][0]);
    stack.push({ name: `F${stack.length + 1}`, file: found, face, ...(bold ? { bold: { file: bold, face: BOLD[file][1] } } : {}) });
  };
  for (const [file, face] of PREFERRED) add(file, face);
  // Then Noto's other scripts (historic and minority ones), consulted only for what the rest lack.
  for (const file of [...files.keys()].sort()) if (/^Noto(Sans|Serif)[A-Za-z]*-Regular\.(ttf|otf)$/.test(file) && !known.has(file)) add(file);
  globalForFonts.quarryFontStack = stack;
  return stack;
}

const globalForFonts = globalThis as unknown as { quarryFontStack?: FontFace[]; quarryFontBytes?: Map<string, Buffer>; quarryFontObjects?: Map<string, Font | null> };

/** A font file's bytes, read once per process (PDFKit embeds from them). */
export function fontBytes(file: string): Buffer {
  const cache = (globalForFonts.quarryFontBytes ??= new Map());
  let bytes = cache.get(file);
  if (!bytes) cache.set(file, (bytes = fs.readFileSync(file)));
  return bytes;
}

function opened(face: FontFace): Font | null {
  const cache = (globalForFonts.quarryFontObjects ??= new Map());
  const key = `${face.file}#${face.face ?? ""}`;
  if (!cache.has(key)) {
    let font: Font | null = null;
    try {
      const made = create(fontBytes(face.file), face.face);
      font = "fonts" in made ? (made.fonts[0] ?? null) : made;
    } catch {
      font = null;
    }
    cache.set(key, font);
  }
  return cache.get(key) ?? null;
}

/** Whether the face has a glyph for the character. */
export function hasGlyph(face: FontFace, ch: string): boolean {
  return opened(face)?.hasGlyphForCodePoint(ch.codePointAt(0) ?? 0) ?? false;
}

const choices = new WeakMap<FontFace[], BoundedMap<number, FontFace | null>>();

/** The first font of the stack that has the character, or null when none has it. */
export function fontFor(ch: string, stack: FontFace[] = fontStack()): FontFace | null {
  const code = ch.codePointAt(0) ?? 0;
  let chosen = choices.get(stack);
  if (!chosen) choices.set(stack, (chosen = new BoundedMap(50_000)));
  return chosen.getOrAdd(code, () => stack.find((face) => opened(face)?.hasGlyphForCodePoint(code)) ?? null);
}

/** Below this code point Latin Modern (the paper's own font) has the letters itself. */
export const LATIN_MODERN_MAX = 0x180;

/** A face's index in its collection (.ttc), for LuaLaTeX's font request; 0 for a single font. */
export function faceIndex(face: FontFace): number {
  if (!face.face) return 0;
  try {
    const made = create(fontBytes(face.file));
    return "fonts" in made ? Math.max(0, made.fonts.findIndex((f) => f.postscriptName === face.face)) : 0;
  } catch {
    return 0;
  }
}

/** The faces of the stack that some character of the text needs (for LaTeX's fallback list). */
export function facesFor(text: string, stack: FontFace[] = fontStack()): FontFace[] {
  const used = new Set<FontFace>();
  for (const ch of new Set(text)) {
    if ((ch.codePointAt(0) ?? 0) < LATIN_MODERN_MAX) continue;
    const face = fontFor(ch, stack);
    if (face) used.add(face);
  }
  return stack.filter((f) => used.has(f));
}

/** The packages that give a Debian server fonts for every major script (named in notes and the README). */
export const FONT_PACKAGES = "fonts-noto-core fonts-noto-cjk fonts-dejavu-core";
