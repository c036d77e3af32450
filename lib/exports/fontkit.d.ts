// The little of fontkit (PDFKit's font engine, installed with it) that the exports use to find a
// font that has a character (lib/exports/fonts.ts).
declare module "fontkit" {
  export interface Font {
    postscriptName: string;
    hasGlyphForCodePoint(codePoint: number): boolean;
  }
  export interface FontCollection {
    type: "TTC" | "DFont";
    fonts: Font[];
    getFont(postscriptName: string): Font | null;
  }
  export function create(buffer: Buffer | Uint8Array, postscriptName?: string): Font | FontCollection;
}
