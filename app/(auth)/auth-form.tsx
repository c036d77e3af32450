"use client";
import Link from "next/link";
import { useActionState, useEffect, useRef } from "react";
import type { FormState } from "../../lib/auth/actions";

const input = "w-full rounded-lg border border-border bg-surface px-3 py-2 text-sm text-fg focus:border-border-strong focus:outline-none focus:ring-2 focus:ring-ring";

function withCallback(path: string, callbackUrl: string): string {
  return callbackUrl === "/" ? path : `${path}?callbackUrl=${encodeURIComponent(callbackUrl)}`;
}

export function AuthForm({
  mode,
  action,
  callbackUrl,
}: {
  mode: "sign-in" | "sign-up";
  action: (prev: FormState, form: FormData) => Promise<FormState>;
  callbackUrl: string;
}) {
  const [state, formAction, pending] = useActionState(action, {});
  const signUp = mode === "sign-up";
  const formRef = useRef<HTMLFormElement>(null);
  const errorId = `${mode}-error`;
  // The field an error is about: the one the server names, else (a wrong email or password) the
  // password, the one to retype; errors about neither (sign-up disabled, rate limits) have none.
  const invalid = !state.error ? null : state.field === "email" || state.field === "password" || state.field === "confirm" ? state.field : signUp ? null : "password";
  // After a failed submit, focus goes to the field to fix, or to the message, never back to the top.
  useEffect(() => {
    if (!state.error) return;
    const field = invalid ? formRef.current?.elements.namedItem(invalid) : null;
    if (field instanceof HTMLInputElement) field.focus();
    else document.getElementById(errorId)?.focus();
  }, [state, invalid, errorId]);
  const describe = (name: string) => (invalid === name ? { "aria-invalid": true, "aria-describedby": errorId } : {});
  return (
    <form ref={formRef} action={formAction} className="flex flex-col gap-4" data-testid={`${mode}-form`}>
      <h1 className="text-2xl font-semibold">{signUp ? "Create your account" : "Sign in to Quarry"}</h1>
      <input type="hidden" name="callbackUrl" value={callbackUrl} />
      <label className="flex flex-col gap-1 text-sm">
        Email
        <input className={input} type="email" name="email" autoComplete="email" required defaultValue={state.email} data-testid={`${mode}-email`} {...describe("email")} />
      </label>
      <label className="flex flex-col gap-1 text-sm">
        Password
        <input
          className={input}
          type="password"
          name="password"
          autoComplete={signUp ? "new-password" : "current-password"}
          required
          minLength={signUp ? 8 : undefined}
          data-testid={`${mode}-password`}
          {...describe("password")}
        />
      </label>
      {signUp && (
        <label className="flex flex-col gap-1 text-sm">
          Confirm password
          <input className={input} type="password" name="confirm" autoComplete="new-password" required minLength={8} data-testid="sign-up-confirm" {...describe("confirm")} />
        </label>
      )}
      {state.error && (
        <p id={errorId} role="alert" tabIndex={-1} className="text-sm text-danger" data-testid={`${mode}-error`}>
          {state.error}
        </p>
      )}
      <button
        type="submit"
        disabled={pending}
        className="rounded-lg bg-accent px-4 py-2 text-sm font-medium text-accent-fg shadow-sm hover:brightness-110 disabled:opacity-50"
        data-testid={`${mode}-submit`}
      >
        {pending ? "Please wait…" : signUp ? "Create account" : "Sign in"}
      </button>
      <p className="text-sm text-muted">
        {signUp ? (
          <>Already have an account? <Link className="underline" href={withCallback("/sign-in", callbackUrl)}>Sign in</Link></>
        ) : (
          <>No account yet? <Link className="underline" href={withCallback("/sign-up", callbackUrl)} data-testid="sign-up-link">Create one</Link></>
        )}
      </p>
    </form>
  );
}
