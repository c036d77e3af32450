// A share link that is unknown, revoked or expired. The visitor is usually signed out and the
// link is all they have, so say what happened instead of pointing at history they cannot open.
export default function ShareNotFound() {
  return (
    <div className="mx-auto max-w-md py-20 text-center" data-testid="share-not-found">
      <p className="font-mono text-sm text-subtle">404</p>
      <h1 className="mt-2 text-2xl font-semibold tracking-tight">This link does not open anything</h1>
      <p className="mt-2 text-sm text-muted">
        The share link is wrong, or its owner revoked it, or it expired. Ask whoever sent it for a new one.
      </p>
    </div>
  );
}
