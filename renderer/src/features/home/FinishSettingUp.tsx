// "Finish setting up": on an admin's Home until the essentials setup can leave undone are there
// (the model runtime running, the chosen models in it, someone besides the admin). Each item says
// what is missing and links to the page that fixes it; the card goes away once all are done.
// Checked again when the tab comes back into view.
import type { ReactElement } from 'react';
import { Link } from 'react-router';
import { Icon } from '../../ui/icons';
import { useSetupChecklist } from './queries';

export function FinishSettingUp(): ReactElement | null {
  // read again whenever the tab comes back into view or the window is focused (api/query.ts)
  const res = useSetupChecklist();

  // an aid, not the page: nothing while it loads or if it cannot be checked
  const data = res.data;
  if (!data || data.done) return null;
  const left = data.items.filter((i) => !i.done).length;
  return (
    <section className="card finish-setup" aria-labelledby="finish-setup-title" data-testid="finish-setup">
      <h2 id="finish-setup-title" className="finish-setup__title">
        Finish setting up
      </h2>
      <p className="muted finish-setup__intro">
        {left === 1 ? 'One thing is left' : `${left} things are left`} before everything in Hearth works.
      </p>
      <ul className="finish-setup__list">
        {data.items.map((item) => (
          <li key={item.key} className={item.done ? 'finish-setup__item is-done' : 'finish-setup__item'} data-testid={`finish-setup-${item.key}`}>
            <span className="finish-setup__mark" aria-hidden="true">
              {item.done ? <Icon name="check" size={18} /> : <Icon name="warn" size={18} />}
            </span>
            <div className="finish-setup__body">
              <p className="finish-setup__item-title">
                {item.title}
                <span className="visually-hidden">{item.done ? ' (done)' : ' (not done yet)'}</span>
              </p>
              <p className="finish-setup__detail">{item.detail}</p>
              {item.fix ? (
                <Link className="btn btn--secondary btn--compact" to={item.fix.path}>
                  {item.fix.label}
                </Link>
              ) : null}
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
