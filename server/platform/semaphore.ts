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

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
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
