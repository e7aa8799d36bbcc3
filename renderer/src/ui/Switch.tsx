// Switch — an on/off control on @radix-ui/react-switch (role="switch", Space/Enter toggle), always
// with a visible label tied to it, and an optional hint line read with it.
//   <Switch label="Reader" hint="Save pages to read later" checked={on} onCheckedChange={setOn} />
// `disabled` with a `hint` saying why (and what to do) is how a switch that cannot work is shown.
import * as RadixSwitch from '@radix-ui/react-switch';
import { useId, type ReactElement, type ReactNode } from 'react';

export interface SwitchProps {
  label: ReactNode;
  hint?: ReactNode;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  disabled?: boolean;
  testId?: string;
}

export function Switch({ label, hint, checked, onCheckedChange, disabled, testId }: SwitchProps): ReactElement {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  return (
    <div className="ui-switch-field">
      <span className="ui-switch-field__text">
        <label htmlFor={id} className="ui-switch-field__label">
          {label}
        </label>
        {hint ? (
          <span id={hintId} className="ui-switch-field__hint">
            {hint}
          </span>
        ) : null}
      </span>
      <RadixSwitch.Root
        id={id}
        className="ui-switch"
        checked={checked}
        onCheckedChange={onCheckedChange}
        disabled={disabled}
        aria-describedby={hintId}
        data-testid={testId}
      >
        <RadixSwitch.Thumb className="ui-switch__thumb" />
      </RadixSwitch.Root>
    </div>
  );
}
