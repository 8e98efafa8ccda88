/**
 * The whole-file load worker's pause while the page takes a partial model in (load.protocol.ts,
 * 'hold' and 'resume'): the decode awaits `checkpoint()` between slices (pipeline.ts), which first
 * lets queued messages in, then waits as long as the gate is held, at most `maxMs` per hold.
 */
export class HoldGate {
  private held: { done: Promise<void>; release(): void } | undefined;

  /**
   * @param nextTask resolves after the tasks already queued (a message to itself in a worker):
   *   a resolved promise alone would not let the page's 'hold' in during a decode.
   */
  constructor(
    private readonly maxMs: number,
    private readonly nextTask: () => Promise<void>,
    /** Called when a checkpoint starts to wait on a hold (once per hold): the decode has stopped. */
    private readonly onHeld: () => void = () => {},
  ) {}

  get holding(): boolean {
    return this.held !== undefined;
  }

  /** Holds the decode from its next checkpoint until `release()` or `maxMs`. */
  hold(): void {
    if (this.held) return;
    let release = () => {};
    const done = new Promise<void>((resolve) => {
      const timer = setTimeout(() => release(), this.maxMs);
      release = () => {
        clearTimeout(timer);
        this.held = undefined;
        resolve();
      };
    });
    this.held = { done, release };
  }

  release(): void {
    this.held?.release();
  }

  async checkpoint(): Promise<void> {
    await this.nextTask();
    if (this.held) this.onHeld();
    while (this.held) await this.held.done;
  }
}

/** `nextTask` for a worker: a message through a channel of its own, which queues behind the page's messages. */
export function channelTask(): () => Promise<void> {
  const channel = new MessageChannel();
  return () =>
    new Promise((resolve) => {
      channel.port1.onmessage = () => resolve();
      channel.port2.postMessage(0);
    });
}
