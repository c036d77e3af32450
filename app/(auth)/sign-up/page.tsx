import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { getSessionUserId } from "@/lib/auth/caller";
import { safeCallbackUrl } from "@/lib/auth/redirect";
import { getEnv } from "@/lib/env";
import { signUpAction } from "../../../lib/auth/actions";
import { AuthForm } from "../auth-form";

export const metadata: Metadata = { title: "Create account – Quarry" };

export default async function SignUpPage({ searchParams }: { searchParams: Promise<{ callbackUrl?: string }> }) {
  const callbackUrl = safeCallbackUrl((await searchParams).callbackUrl);
  if (await getSessionUserId()) redirect(callbackUrl);
  if (!getEnv().AUTH_ALLOW_SIGNUP) {
    return (
      <div className="flex flex-col gap-2">
        <h1 className="text-2xl font-semibold">Sign-up is disabled</h1>
        <p className="text-sm text-muted">Ask the administrator of this server for an account.</p>
      </div>
    );
  }
  return <AuthForm mode="sign-up" action={signUpAction} callbackUrl={callbackUrl} />;
}
