"use client";
// A modal confirmation on the native <dialog>: focus trap, Escape and backdrop come for free.
import { useEffect, useRef } from "react";
import { buttonClass } from "./button";

interface Props {
  open: boolean;
  title: string;
  description?: React.ReactNode;
  confirmLabel: string;
  busyLabel?: string;
  busy?: boolean;
  error?: string | null;
  destructive?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

export function ConfirmDialog({ open, title, description, confirmLabel, busyLabel, busy, error, destructive, onConfirm, onClose }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);

  return (
    <dialog
      ref={ref}
      onClose={onClose}
      onClick={(e) => {
        if (e.target === ref.current) onClose();
      }}
      aria-labelledby="confirm-title"
      data-testid="confirm-dialog"
      className="m-auto w-[min(92vw,26rem)] rounded-xl border border-border bg-surface p-0 text-fg shadow-2xl backdrop:bg-black/40 backdrop:backdrop-blur-[2px]"
    >
      <div className="p-5">
        <h2 id="confirm-title" className="text-base font-semibold">{title}</h2>
        {description ? <div className="mt-2 text-sm text-muted">{description}</div> : null}
        {error ? <p role="alert" className="mt-3 text-sm text-danger">{error}</p> : null}
      </div>
      <div className="flex justify-end gap-2 border-t border-border bg-surface-2/50 px-5 py-3">
        <button type="button" className={buttonClass("secondary", "md")} onClick={onClose} data-testid="confirm-cancel">
          Keep it
        </button>
        <button
          type="button"
          autoFocus
          className={buttonClass(destructive ? "danger" : "primary", "md")}
          onClick={onConfirm}
          disabled={busy}
          data-testid="confirm-ok"
        >
          {busy ? busyLabel ?? confirmLabel : confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
