"use client";
// A link to another part of the site (the header's, the account menu's): its page is prefetched when
// the pointer or the keyboard focus reaches it, not as soon as it is on screen. Every page shows these
// links, and prefetching all of them on every first load cost ~10 KB that a visit rarely uses.
import Link from "next/link";
import { useRouter } from "next/navigation";
import type { ComponentProps } from "react";

export function IntentLink({ href, onPointerEnter, onFocus, onTouchStart, ...props }: Omit<ComponentProps<typeof Link>, "href" | "prefetch"> & { href: string }) {
  const router = useRouter();
  const prefetch = () => router.prefetch(href);
  return (
    <Link
      href={href}
      prefetch={false}
      onPointerEnter={(e) => {
        prefetch();
        onPointerEnter?.(e);
      }}
      onFocus={(e) => {
        prefetch();
        onFocus?.(e);
      }}
      onTouchStart={(e) => {
        prefetch();
        onTouchStart?.(e);
      }}
      {...props}
    />
  );
}
