// An AbortSignal for a request's work that should stop when nobody is waiting for the answer.
import type { Request, Response } from 'express';

/** Fires when the client goes away before the answer is finished. */
export function clientGone(req: Request, res: Response): AbortSignal {
  const ac = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) ac.abort();
  });
  req.on('aborted', () => ac.abort());
  return ac.signal;
}
