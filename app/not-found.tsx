import Link from "next/link";
import { buttonClass } from "@/components/button";

export default function NotFound() {
  return (
    <div className="mx-auto max-w-md py-20 text-center" data-testid="not-found">
      <p className="font-mono text-sm text-subtle">404</p>
      <h1 className="mt-2 text-2xl font-semibold tracking-tight">Nothing was found here</h1>
      <p className="mt-2 text-sm text-muted">The page does not exist, or the research it pointed to was deleted.</p>
      <div className="mt-6 flex justify-center gap-2">
        <Link href="/history" className={buttonClass("secondary", "md")}>Open history</Link>
        <Link href="/" className={buttonClass("primary", "md")}>New research</Link>
      </div>
    </div>
  );
}
