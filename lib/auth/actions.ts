"use server";
// Server actions of the account pages. Next.js checks that a server action's Origin matches the
// host, so these are CSRF-safe without a token.
import { AuthError } from "next-auth";
import { headers } from "next/headers";
import { authLimiters } from "@/lib/auth/attempt-limiter";
import { signIn, signOut } from "@/lib/auth/next-auth";
import { safeCallbackUrl } from "@/lib/auth/redirect";
import { createUser } from "@/lib/auth/users";
import { getEnv } from "@/lib/env";
import { AppError } from "@/lib/errors";

export interface FormState {
  error?: string;
  field?: string;
  email?: string;
}

async function signInOrExplain(email: string, password: string, redirectTo: string): Promise<FormState> {
  try {
    await signIn("credentials", { email, password, redirectTo });
    return {};
  } catch (error) {
    // signIn redirects by throwing; only Auth.js errors are ours to explain.
    if (!(error instanceof AuthError)) throw error;
    const code = (error as AuthError & { code?: string }).code;
    if (code === "too_many_attempts") return { error: "Too many failed attempts for this email. Wait 15 minutes and try again.", email };
    return { error: "Wrong email or password.", email };
  }
}

export async function signInAction(_prev: FormState, form: FormData): Promise<FormState> {
  const email = String(form.get("email") ?? "").trim().toLowerCase();
  const password = String(form.get("password") ?? "");
  if (!email || !password) return { error: "Enter your email and password.", email };
  return signInOrExplain(email, password, safeCallbackUrl(form.get("callbackUrl")));
}

export async function signUpAction(_prev: FormState, form: FormData): Promise<FormState> {
  const email = String(form.get("email") ?? "").trim().toLowerCase();
  const password = String(form.get("password") ?? "");
  if (!getEnv().AUTH_ALLOW_SIGNUP) return { error: "Sign-up is disabled on this server. Ask its administrator for an account.", email };
  if (password !== String(form.get("confirm") ?? "")) return { error: "The passwords do not match.", field: "confirm", email };
  const h = await headers();
  // Forwarded addresses only from a trusted proxy: otherwise each sign-up could claim a new address.
  const client = (getEnv().TRUST_PROXY && (h.get("x-forwarded-for")?.split(",")[0]?.trim() || h.get("x-real-ip"))) || "local";
  if (!authLimiters.signUp.take(client)) return { error: "Too many sign-ups from your address. Try again later.", email };
  try {
    await createUser({ email, password, name: String(form.get("name") ?? "") || undefined });
  } catch (error) {
    if (error instanceof AppError) return { error: error.message, field: error.field, email };
    throw error;
  }
  return signInOrExplain(email, password, safeCallbackUrl(form.get("callbackUrl")));
}

export async function signOutAction(): Promise<void> {
  await signOut({ redirectTo: "/sign-in" });
}
