// At most `size` tasks at a time; the rest wait in order. Guards shared pools that one kind of
// work must not fill (PIN hashing runs on libuv's four threads, which file and DNS work need too).
export class Semaphore {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly size: number) {}

  /** Tasks started or waiting. */
  get pending(): number {
    return this.active + this.waiting.length;
  }

  /** Runs `task` when a slot is free; `first` puts it at the head of the queue (work that must not wait behind a flood). */
  async run<T>(task: () => Promise<T>, first = false): Promise<T> {
    if (this.active >= this.size) await new Promise<void>((resolve) => (first ? this.waiting.unshift(resolve) : this.waiting.push(resolve)));
    else this.active++;
    try {
      return await task();
    } finally {
      // hand the slot straight to the next task, so a newcomer cannot overtake the queue
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }
}
