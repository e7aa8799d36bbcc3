// True from the first time `open` is true: a dialog's code (a lazily loaded chunk) is fetched when it
// first opens, and stays mounted after that so it can close as Radix closes it.
import { useState } from 'react';

export function useOpenedOnce(open: boolean): boolean {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened || open;
}
