"use client";
// useState that survives a reload of this tab (sessionStorage). `ready` is false until the stored
// value has been read after mount, so the first render matches the server's.
import { useCallback, useEffect, useRef, useState } from "react";

export function useSessionState<T>(
  key: string,
  initial: T,
): [T, (next: T | ((prev: T) => T)) => void, boolean, () => void, () => void] {
  const [value, setValue] = useState<T>(initial);
  const [ready, setReady] = useState(false);
  const initialRef = useRef(initial);
  const forgotten = useRef(false);

  useEffect(() => {
    try {
      const raw = sessionStorage.getItem(key);
      if (raw) setValue({ ...initialRef.current, ...JSON.parse(raw) });
    } catch {
      // unreadable or unavailable storage: start fresh
    }
    setReady(true);
  }, [key]);

  useEffect(() => {
    if (!ready || forgotten.current) return;
    try {
      sessionStorage.setItem(key, JSON.stringify(value));
    } catch {
      // quota or private mode: the draft lasts for this page only
    }
  }, [key, value, ready]);

  const clear = useCallback(() => {
    try {
      sessionStorage.removeItem(key);
    } catch {}
    setValue(initialRef.current);
  }, [key]);

  /** Drops the stored value but keeps the current one on screen (e.g. while navigating away). */
  const forget = useCallback(() => {
    forgotten.current = true;
    try {
      sessionStorage.removeItem(key);
    } catch {}
  }, [key]);

  return [value, setValue, ready, clear, forget];
}
