"use client";
// One QueryClient per browser tab, created once; plus the theme. Marks <html data-hydrated> once the
// root has hydrated (its effects run after every child's): the page is interactive from then on
// (e2e/fixtures.ts waits for it after each navigation).
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { ThemeProvider } from "./theme";

export function Providers({ children }: { children: React.ReactNode }) {
  const [client] = useState(
    () =>
      new QueryClient({
        defaultOptions: {
          queries: { staleTime: 10_000, refetchOnWindowFocus: true, retry: (n, e) => n < 2 && !(e instanceof Error && "status" in e && (e as { status: number }).status === 404) },
        },
      }),
  );
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return (
    <QueryClientProvider client={client}>
      <ThemeProvider>{children}</ThemeProvider>
    </QueryClientProvider>
  );
}
