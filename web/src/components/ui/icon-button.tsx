import type { ButtonHTMLAttributes } from 'react';
import { Icon } from './icon';

interface IconButtonProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'children'> {
  icon: string;
  /** The accessible name and the tooltip. */
  label: string;
}

/** An icon-only button with a tooltip (spec: delete-account and log-out icons with tooltips). */
export function IconButton({ icon, label, className, ...rest }: IconButtonProps) {
  return (
    <button
      type="button"
      aria-label={label}
      data-tooltip={label}
      className={`icon-button${className ? ` ${className}` : ''}`}
      {...rest}
    >
      <Icon name={icon} />
    </button>
  );
}
