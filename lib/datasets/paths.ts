// No absolute server path in what a user or a model reads: DuckDB's messages (and a system table's
// rows, should one get through) name files by their full path. Each directory given is replaced by a
// neutral name, the longest first so that a file under the data directory reads "datasets/x.csv".
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export type PathNames = [dir: string, name: string][];

/** The directory, its real path (a symlinked /tmp) and the home directory, each with its neutral name. */
export function pathNames(entries: PathNames): PathNames {
  const out: PathNames = [];
  const add = (dir: string, name: string) => {
    const d = path.resolve(dir).replace(/[\\/]+$/, "");
    if (d.length > 1 && !out.some(([x]) => x === d)) out.push([d, name]);
  };
  for (const [dir, name] of entries) {
    add(dir, name);
    try {
      add(fs.realpathSync(dir), name);
    } catch {
      // A directory that does not exist (yet) has no other spelling.
    }
  }
  add(os.homedir(), "~");
  return out.sort((a, b) => b[0].length - a[0].length);
}

export function scrubPaths(text: string, names: PathNames): string {
  let out = text;
  for (const [dir, name] of names) out = out.split(dir).join(name);
  return out;
}
