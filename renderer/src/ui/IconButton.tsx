// IconButton — a button (or a router link, with `to`) showing an icon, never without a name: the
// `label` is its accessible name always, and visible text beside the icon unless `labelShown` is
// 'never' ('wide' shows it from 600 px up, 'always' everywhere). A hidden label is also the hover
// tooltip (title).
//   <IconButton icon="edit" label="Edit" accessibleLabel="Edit Sam" labelShown="wide" onClick={…} />
//   <IconButton icon="home" label="Home screen" to="/members/u1/home" accessibleLabel="Home screen of Sam" />
// `accessibleLabel` gives a fuller name for screen readers where the row makes the short label
// clear to the eye ("Edit" in Sam's row reads "Edit Sam").
import type { ButtonHTMLAttributes, ReactElement } from 'react';
import { Link } from 'react-router';
import { Icon, type IconName } from './icons';

export interface IconButtonProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'children'> {
  icon: IconName;
  label: string;
  accessibleLabel?: string;
  labelShown?: 'always' | 'wide' | 'never';
  tone?: 'secondary' | 'ghost' | 'danger-ghost' | 'primary';
  /** A route inside the app: renders a link instead of a button. */
  to?: string;
  testId?: string;
}

export function IconButton({ icon, label, accessibleLabel, labelShown = 'always', tone = 'secondary', to, testId, className, ...button }: IconButtonProps): ReactElement {
  const classes = ['btn', `btn--${tone}`, 'btn--compact', 'icon-button', `icon-button--label-${labelShown}`, className].filter(Boolean).join(' ');
  const name = accessibleLabel ?? label;
  const title = labelShown === 'always' ? undefined : label;
  const inner = (
    <>
      <Icon name={icon} size={20} />
      <span className={labelShown === 'never' ? 'visually-hidden' : 'icon-button__label'}>{label}</span>
    </>
  );
  if (to !== undefined) {
    return (
      <Link to={to} className={classes} aria-label={name !== label ? name : undefined} title={title} data-testid={testId}>
        {inner}
      </Link>
    );
  }
  return (
    <button type="button" {...button} className={classes} aria-label={name !== label ? name : undefined} title={title} data-testid={testId}>
      {inner}
    </button>
  );
}
