"use client";
// Replaces the root layout when it fails itself, so it brings its own <html> and minimal styles.
export default function GlobalError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <html lang="en">
      <body style={{ fontFamily: "system-ui, sans-serif", display: "grid", placeItems: "center", minHeight: "100vh", margin: 0, background: "#f7f7f5", color: "#18181b" }}>
        <div role="alert" style={{ maxWidth: 420, padding: 24, textAlign: "center" }}>
          <h1 style={{ fontSize: 20, margin: 0 }}>Quarry hit an unexpected error</h1>
          <p style={{ color: "#5f5f68", fontSize: 14 }}>Reload the page to try again.{error.digest ? ` Reference: ${error.digest}` : ""}</p>
          <button type="button" onClick={reset} style={{ padding: "8px 14px", borderRadius: 8, border: 0, background: "#4f46e5", color: "#fff", cursor: "pointer" }}>
            Try again
          </button>
        </div>
      </body>
    </html>
  );
}
