// Messages between the front door and a window go in batches: everything queued during one turn of the
// event loop leaves in a single postMessage. Under load this turns one cross-thread hand-off (clone,
// wake-up) per message into one per turn, without delaying a lone message by more than that turn.

import type { Batch } from './protocol.js';

export class Outbox {
  private batch: Batch = [];
  private scheduled = false;
  private readonly flushLater = () => this.flush();

  constructor(private readonly deliver: (batch: Batch) => void) {}

  /** The batch to append records to; it leaves at the end of this turn. */
  open(): Batch {
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.flushLater);
    }
    return this.batch;
  }

  /** Sends what is queued now (also used before a thread exits). */
  flush(): void {
    this.scheduled = false;
    if (this.batch.length === 0) return;
    const batch = this.batch;
    this.batch = [];
    this.deliver(batch);
  }

  /** Drops what is queued (its receiver is gone). */
  clear(): void {
    this.batch = [];
  }
}
