"use client";
// What an error boundary shows: a calm message, a retry, and a way home.
import Link from "next/link";
import { useEffect } from "react";
import { buttonClass } from "./button";
import { Icon } from "./icons";

export function ErrorView({ error, reset, title = "Something went wrong" }: { error: Error & { digest?: string }; reset: () => void; title?: string }) {
  useEffect(() => {
    console.error(error);
  }, [error]);
  return (
    <div role="alert" data-testid="error-boundary" className="mx-auto max-w-lg py-16 text-center">
      <div className="mx-auto grid size-12 place-items-center rounded-full bg-danger-soft text-danger">
        <Icon name="alert" className="size-5" />
      </div>
      <h1 className="mt-4 text-xl font-semibold tracking-tight">{title}</h1>
      <p className="mt-2 text-sm text-muted">
        This page hit an unexpected error. Trying again usually helps; your research keeps running on the server either way.
      </p>
      {error.digest ? <p className="mt-2 font-mono text-xs text-subtle">Reference: {error.digest}</p> : null}
      <div className="mt-6 flex justify-center gap-2">
        <button type="button" onClick={reset} className={buttonClass("primary", "md")}>
          <Icon name="refresh" /> Try again
        </button>
        <Link href="/" className={buttonClass("secondary", "md")}>New research</Link>
      </div>
    </div>
  );
}
