import type { Plugin } from "esbuild";
/** linkedom's event-target.js with the listener map made on first use. Throws if the source is not the expected one. */
export function lazyEventTargetSource(source: string): string;
/** The esbuild plugin that applies it to linkedom's ES module build. */
export const lazyLinkedomEvents: Plugin;
