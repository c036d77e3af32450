"use client";
// The "Share" button of a research or Deep Research conversation page: the share-link panel
// (components/share-panel.tsx) in a modal.
import { useEffect, useRef, useState } from "react";
import { buttonClass } from "./button";
import { Icon } from "./icons";
import { SharePanel, type ShareTarget } from "./share-panel";

export function ShareButton(target: ShareTarget) {
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);

  return (
    <>
      <button type="button" data-testid="open-share" className={buttonClass("secondary", "md")} onClick={() => setOpen(true)}>
        <Icon name="link" /> Share
      </button>
      <dialog
        ref={ref}
        onClose={() => setOpen(false)}
        onClick={(e) => {
          if (e.target === ref.current) setOpen(false);
        }}
        aria-label={target.conversationId ? "Share this conversation" : "Share this research"}
        className="m-auto w-[min(94vw,32rem)] rounded-xl border border-border bg-surface p-0 text-fg shadow-2xl backdrop:bg-black/40"
      >
        <div className="relative p-5">
          <button type="button" onClick={() => setOpen(false)} aria-label="Close" className="absolute right-3 top-3 grid size-8 place-items-center rounded-md text-subtle hover:bg-surface-2 hover:text-fg">
            <Icon name="x" />
          </button>
          {open ? <SharePanel {...target} /> : null}
        </div>
      </dialog>
    </>
  );
}
