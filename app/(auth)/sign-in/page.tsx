import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { getSessionUserId } from "@/lib/auth/caller";
import { safeCallbackUrl } from "@/lib/auth/redirect";
import { signInAction } from "../../../lib/auth/actions";
import { AuthForm } from "../auth-form";

export const metadata: Metadata = { title: "Sign in – Quarry" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ callbackUrl?: string }> }) {
  const callbackUrl = safeCallbackUrl((await searchParams).callbackUrl);
  if (await getSessionUserId()) redirect(callbackUrl);
  return <AuthForm mode="sign-in" action={signInAction} callbackUrl={callbackUrl} />;
}
