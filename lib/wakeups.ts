// Wake-ups by key (a run's id, a page's id), fed by a notification source that starts with the first
// waiter: LISTEN/NOTIFY, Redis pub/sub, or this process's own notify. A waiter resolves when its key is
// notified, after its timeout, or on abort, whichever comes first: a lost notification costs a
// timeout, never a hang.

interface Waiter {
  /** Notified since it was armed. */
  woken: boolean;
  /** Its wait's end, while it waits. */
  wake?: () => void;
}

export interface ArmedWakeup {
  /** Resolves at once if the key was notified since it was armed, else as `Wakeups.wait` does. */
  wait(ms: number, signal: AbortSignal): Promise<void>;
  /** Stops listening (always call it: the waiter is kept until then). */
  dispose(): void;
}

export class Wakeups {
  private readonly waiting = new Map<string, Set<Waiter>>();
  private started = false;

  constructor(private readonly start: (notify: (key: string) => void) => void) {}

  /** Resolves when `key` is notified, after `ms`, or on abort. */
  async wait(key: string, ms: number, signal: AbortSignal): Promise<void> {
    const armed = this.arm(key);
    try {
      await armed.wait(ms, signal);
    } finally {
      armed.dispose();
    }
  }

  /**
   * Listens for `key` from now on, before the caller looks at what it waits for: a notification that
   * comes between that look and the wait is not lost.
   */
  arm(key: string): ArmedWakeup {
    if (!this.started) {
      this.started = true;
      this.start((k) => this.notify(k));
    }
    const waiter: Waiter = { woken: false };
    let set = this.waiting.get(key);
    if (!set) this.waiting.set(key, (set = new Set()));
    set.add(waiter);
    const mine = set;
    return {
      wait: (ms, signal) =>
        new Promise<void>((resolve) => {
          if (waiter.woken || signal.aborted) return resolve();
          const done = () => {
            clearTimeout(timer);
            signal.removeEventListener("abort", done);
            waiter.wake = undefined;
            resolve();
          };
          const timer = setTimeout(done, ms);
          waiter.wake = done;
          signal.addEventListener("abort", done, { once: true });
        }),
      dispose: () => {
        waiter.wake?.();
        mine.delete(waiter);
        if (mine.size === 0 && this.waiting.get(key) === mine) this.waiting.delete(key);
      },
    };
  }

  /** Wakes every waiter of `key` in this process. */
  notify(key: string): void {
    for (const waiter of this.waiting.get(key) ?? []) {
      waiter.woken = true;
      waiter.wake?.();
    }
  }
}
