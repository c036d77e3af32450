import type { Metadata, Viewport } from "next";
import "@fontsource-variable/inter";
import "./globals.css";
import { Suspense } from "react";
import { Providers } from "@/components/providers";
import { SiteHeader } from "@/components/site-header";
import { ConfigBanner } from "@/components/config-banner";
import { THEME_SCRIPT } from "@/components/theme-script";

export const metadata: Metadata = {
  title: { default: "Quarry — deep research", template: "%s · Quarry" },
  description: "Self-hosted deep research: a tree of searches, read and distilled into a cited report.",
};

export const viewport: Viewport = {
  width: "device-width",
  initialScale: 1,
  themeColor: [
    { media: "(prefers-color-scheme: light)", color: "#f7f7f5" },
    { media: "(prefers-color-scheme: dark)", color: "#0d0e12" },
  ],
};

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en" suppressHydrationWarning>
      <head>
        {/* Sets the theme class before first paint, so a dark page never flashes light. */}
        <script dangerouslySetInnerHTML={{ __html: THEME_SCRIPT }} />
      </head>
      <body className="min-h-dvh bg-bg text-fg antialiased">
        <Providers>
          <a href="#main" className="sr-only focus:not-sr-only focus:fixed focus:left-3 focus:top-3 focus:z-50 focus:rounded-md focus:bg-surface focus:px-3 focus:py-2 focus:shadow">
            Skip to content
          </a>
          <SiteHeader />
          <Suspense fallback={null}>
            <ConfigBanner />
          </Suspense>
          <main id="main" className="mx-auto w-full max-w-6xl px-4 pb-16 pt-6 sm:px-6">
            {children}
          </main>
        </Providers>
      </body>
    </html>
  );
}
