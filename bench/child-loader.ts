// The flags a bench child process needs from its parent: the TypeScript loader (tsx's --import/--require), and
// nothing else of the parent's flags.
export function loaderArgs(): string[] {
  const out: string[] = [];
  const argv = process.execArgv;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (/^--(import|require|loader|experimental-loader)=/.test(a)) out.push(a);
    else if (/^(--import|--require|-r|--loader|--experimental-loader)$/.test(a) && i + 1 < argv.length) out.push(a, argv[++i]);
  }
  return out;
}
