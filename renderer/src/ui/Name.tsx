// Name — a person's or an item's name that may be long: one line, shortened with an ellipsis where
// it does not fit (never broken mid-word), and whole everywhere else: on hover (title), for screen
// readers (the text itself is whole; only its painting is cut) and, for keyboard users, on focus —
// a name that is actually cut becomes focusable (tabIndex 0) and unclips while focused. Inside a
// link or button pass `focusable={false}`: the control's own focus and name already carry it.
//   <Name className="member__name">{user.name}</Name>
import { useEffect, useRef, useState, type ReactElement } from 'react';

export interface NameProps {
  children: string;
  className?: string;
  /** false inside a link or button (default true: focusable while cut). */
  focusable?: boolean;
  testId?: string;
}

export function Name({ children, className, focusable = true, testId }: NameProps): ReactElement {
  const ref = useRef<HTMLSpanElement>(null);
  const [cut, setCut] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el || !focusable || typeof ResizeObserver === 'undefined') return;
    // measured when the observer reports (it always reports an element once it is observed), that is
    // after the browser's own layout: a measurement while the page is still being drawn would force
    // an extra layout of the whole page first
    const check = () => {
      // while focused it is unclipped, so keep the last answer
      if (document.activeElement !== el) setCut(el.scrollWidth > el.clientWidth + 1);
    };
    const observer = new ResizeObserver(check);
    observer.observe(el);
    return () => observer.disconnect();
  }, [children, focusable]);
  return (
    <span ref={ref} className={className ? `name ${className}` : 'name'} title={children} tabIndex={focusable && cut ? 0 : undefined} data-testid={testId}>
      {children}
    </span>
  );
}
