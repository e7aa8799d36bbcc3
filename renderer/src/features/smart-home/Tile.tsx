// One device as a tile (issue 37), shared by the Smart home page and the home screen widget: its
// state in words, its controls (lights on/off and brightness, switches, climate target, covers,
// locks, alarms, media players, scenes), a confirm dialog before any action on a guarded device, and
// optionally a star that pins it to the member's favourites.
import { useState, type ReactElement } from 'react';
import { errorMessage } from '../../api/client';
import type { HaEntity } from '../../api/types';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { FormError } from '../../ui/StateViews';
import { useEntityAction } from './queries';
import './smart-home.css';

type Run = (service: string, data?: Record<string, unknown>) => void;

/** What a guarded action is called in the confirm dialog. */
const SERVICE_LABELS: Record<string, string> = {
  unlock: 'Unlock',
  lock: 'Lock',
  open: 'Open',
  open_cover: 'Open',
  close_cover: 'Close',
  stop_cover: 'Stop',
  alarm_disarm: 'Disarm',
  alarm_arm_home: 'Arm (at home)',
  alarm_arm_away: 'Arm (away)',
  turn_on: 'Turn on',
  turn_off: 'Turn off',
  toggle: 'Switch',
};
export const labelOf = (service: string) => SERVICE_LABELS[service] ?? service.replace(/_/g, ' ');
const isOn = (e: HaEntity) => e.state === 'on';
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

export function stateWords(e: HaEntity): string {
  if (e.state === 'unavailable' || e.state === 'unknown') return 'Not answering';
  const unit = typeof e.attributes.unit_of_measurement === 'string' ? ` ${e.attributes.unit_of_measurement}` : '';
  if (e.domain === 'sensor') return `${e.state}${unit}`;
  if (e.domain === 'light' && isOn(e)) {
    const b = num(e.attributes.brightness);
    return b === null ? 'On' : `On, ${Math.round((b / 255) * 100)}%`;
  }
  if (e.domain === 'climate') {
    const current = num(e.attributes.current_temperature);
    return `${e.state === 'off' ? 'Off' : e.state.replace(/_/g, ' ')}${current === null ? '' : `, ${current}° now`}`;
  }
  if (e.domain === 'cover' && num(e.attributes.current_position) !== null && e.state === 'open') return `Open ${num(e.attributes.current_position)}%`;
  const s = e.state.replace(/_/g, ' ');
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function OnOff({ e, run, busy }: { e: HaEntity; run: Run; busy: boolean }): ReactElement | null {
  if (!e.services.includes('turn_on')) return null;
  const on = isOn(e);
  return (
    <button type="button" className={`btn ${on ? 'btn--primary' : 'btn--secondary'} ha-tile__toggle`} aria-pressed={on} disabled={busy} onClick={() => run(on ? 'turn_off' : 'turn_on')}>
      {on ? `Turn off ${e.name}` : `Turn on ${e.name}`}
    </button>
  );
}

function Brightness({ e, run, busy }: { e: HaEntity; run: Run; busy: boolean }): ReactElement | null {
  const modes = e.attributes.supported_color_modes;
  const dims = Array.isArray(modes) && modes.some((m) => m !== 'onoff');
  const b = num(e.attributes.brightness);
  const [value, setValue] = useState<number | null>(null);
  if (!dims) return null;
  const shown = value ?? (b === null ? 0 : Math.round((b / 255) * 100));
  return (
    <label className="ha-tile__slider">
      <span>Brightness</span>
      <input
        type="range"
        min={1}
        max={100}
        value={Math.max(1, shown)}
        disabled={busy}
        aria-valuetext={`${shown}%`}
        onChange={(ev) => setValue(Number(ev.target.value))}
        onPointerUp={() => value !== null && (run('turn_on', { brightness_pct: value }), setValue(null))}
        onKeyUp={() => value !== null && (run('turn_on', { brightness_pct: value }), setValue(null))}
      />
    </label>
  );
}

function Climate({ e, run, busy }: { e: HaEntity; run: Run; busy: boolean }): ReactElement | null {
  const target = num(e.attributes.temperature);
  if (target === null || !e.services.includes('set_temperature')) return null;
  const step = num(e.attributes.target_temp_step) ?? 0.5;
  const min = num(e.attributes.min_temp) ?? 5;
  const max = num(e.attributes.max_temp) ?? 35;
  const set = (t: number) => run('set_temperature', { temperature: Math.min(max, Math.max(min, Math.round(t / step) * step)) });
  return (
    <div className="ha-tile__row" role="group" aria-label={`${e.name} target temperature`}>
      <button type="button" className="btn btn--secondary btn--compact" disabled={busy || target <= min} onClick={() => set(target - step)} aria-label={`Lower ${e.name}`}>
        −
      </button>
      <span className="ha-tile__target">{target}°</span>
      <button type="button" className="btn btn--secondary btn--compact" disabled={busy || target >= max} onClick={() => set(target + step)} aria-label={`Raise ${e.name}`}>
        +
      </button>
    </div>
  );
}

/** The buttons of a domain whose services are actions in words (covers, locks, alarms, media players, scenes). */
const ACTION_BUTTONS: Record<string, (e: HaEntity) => string[]> = {
  cover: (e) => (e.state === 'open' || e.state === 'opening' ? ['close_cover', 'stop_cover'] : ['open_cover']),
  lock: (e) => (e.state === 'locked' ? ['unlock'] : ['lock']),
  alarm_control_panel: (e) => (e.state === 'disarmed' ? ['alarm_arm_home', 'alarm_arm_away'] : ['alarm_disarm']),
  media_player: () => ['media_play_pause'],
  scene: () => ['turn_on'],
  script: () => ['turn_on'],
};

/** The star of a tile: whether the device is among the member's favourites, and how to change that. */
export interface FavouriteStar {
  on: boolean;
  busy: boolean;
  toggle(): void;
}

export function Tile({ e, star, compact = false }: { e: HaEntity; star?: FavouriteStar; compact?: boolean }): ReactElement {
  const action = useEntityAction();
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<{ service: string; data?: Record<string, unknown> } | null>(null);
  const call = async (service: string, data?: Record<string, unknown>, confirm?: boolean) => {
    setError(null);
    await action.mutateAsync({ id: e.id, service, data, confirm });
  };
  const run: Run = (service, data) => {
    if (e.guarded) return setConfirming({ service, data });
    call(service, data).catch((err: unknown) => setError(errorMessage(err)));
  };
  const busy = action.isPending;
  const offline = e.state === 'unavailable';
  const buttons = ACTION_BUTTONS[e.domain]?.(e).filter((s) => e.services.includes(s)) ?? [];
  const titleId = `ha-${e.id.replace(/\W/g, '-')}`;
  return (
    <li className={`card ha-tile${compact ? ' ha-tile--compact' : ''} ha-tile--${e.domain}${isOn(e) ? ' ha-tile--on' : ''}`} aria-labelledby={titleId} data-entity={e.id}>
      <div className="ha-tile__head">
        <h3 id={titleId} className="ha-tile__name">
          {e.name}
        </h3>
        {e.guarded ? <span className="ha-tile__badge">Asks first</span> : null}
        {star ? (
          <button
            type="button"
            className="btn btn--ghost btn--compact ha-tile__star"
            aria-pressed={star.on}
            disabled={star.busy}
            onClick={star.toggle}
            aria-label={star.on ? `Remove ${e.name} from favourites` : `Add ${e.name} to favourites`}
            title={star.on ? 'In your favourites (on your home screen)' : 'Add to your favourites (on your home screen)'}
          >
            <span aria-hidden="true">{star.on ? '★' : '☆'}</span>
          </button>
        ) : null}
      </div>
      <p className="ha-tile__state" aria-live="polite">
        {stateWords(e)}
      </p>
      {offline ? null : (
        <div className="ha-tile__controls">
          {e.domain === 'light' || e.domain === 'switch' || e.domain === 'fan' || e.domain === 'input_boolean' ? <OnOff e={e} run={run} busy={busy} /> : null}
          {e.domain === 'light' && isOn(e) && !compact ? <Brightness e={e} run={run} busy={busy} /> : null}
          {e.domain === 'climate' ? <Climate e={e} run={run} busy={busy} /> : null}
          {buttons.map((s) => (
            <button key={s} type="button" className="btn btn--secondary" disabled={busy} onClick={() => run(s)}>
              {`${labelOf(s)} ${e.name}`}
            </button>
          ))}
        </div>
      )}
      <FormError message={error} />
      <ConfirmDialog
        open={confirming !== null}
        title={confirming ? `${labelOf(confirming.service)} ${e.name}?` : ''}
        description={`${e.name} is a device the household guards. Only go ahead if you mean it.`}
        confirmLabel={confirming ? labelOf(confirming.service) : ''}
        confirmIcon="lock"
        tone="primary"
        cancelLabel="Not now"
        onConfirm={async () => {
          if (!confirming) return;
          await call(confirming.service, confirming.data, true);
          setConfirming(null);
        }}
        onClose={() => setConfirming(null)}
      />
    </li>
  );
}
