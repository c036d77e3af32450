export function FieldError({ id, message, testid }: { id: string; message?: string | null; testid?: string }) {
  if (!message) return null;
  return (
    <p id={id} role="alert" data-testid={testid} className="mt-1.5 flex items-start gap-1.5 text-[13px] text-danger">
      {message}
    </p>
  );
}
