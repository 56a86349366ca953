import type { IconStyle } from '@uis/proto';

/** The Material Icons font class of each style (fonts bundled from the material-icons package). */
const ICON_STYLE_CLASS: Record<IconStyle, string> = {
  filled: 'material-icons',
  outlined: 'material-icons-outlined',
  round: 'material-icons-round',
  sharp: 'material-icons-sharp',
  'two-tone': 'material-icons-two-tone',
};

interface IconProps {
  name: string;
  /** Only the filled font is loaded up front; other styles load with the icon picker. */
  iconStyle?: IconStyle;
  color?: string;
  size?: number;
  className?: string;
}

/** A Material icon by name (a font ligature). Decorative: the control around it carries the label. */
export function Icon({ name, iconStyle = 'filled', color, size, className }: IconProps) {
  return (
    <span
      className={`${ICON_STYLE_CLASS[iconStyle]} icon${className ? ` ${className}` : ''}`}
      style={{ color, fontSize: size }}
      aria-hidden="true"
    >
      {name}
    </span>
  );
}
