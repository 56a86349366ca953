import { TRANSPARENT } from '@uis/proto/browser';
import { useState } from 'react';
import { HexColorInput, HexColorPicker } from 'react-colorful';
import { Popover } from '../../../components/ui/popover';
import { isTransparent, pickerHex } from '../lib/action-color';
import { colourText, EDITOR_TEXTS } from '../../../i18n/en/editor';

interface ActionColorPickerProps {
  value: string;
  onChange: (color: string) => void;
}

/** An action's colour (spec section 3): a hex picker with a hex input, and 'transparent'. Black by default. */
export function ActionColorPicker({ value, onChange }: ActionColorPickerProps) {
  const [open, setOpen] = useState(false);
  const transparent = isTransparent(value);
  const hex = pickerHex(value);

  return (
    <div className="action-color">
      <button
        type="button"
        className={`action-color-swatch${transparent ? ' transparent' : ''}`}
        style={transparent ? undefined : { background: value }}
        aria-label={colourText(value)}
        aria-expanded={open}
        onClick={() => setOpen((shown) => !shown)}
      />
      {open ? (
        <Popover
          label={EDITOR_TEXTS.chooseColour}
          onClose={() => setOpen(false)}
          className="action-color-popover"
        >
          <HexColorPicker color={hex} onChange={onChange} />
          <div className="action-color-row">
            <HexColorInput
              className="text-input action-color-hex"
              aria-label={EDITOR_TEXTS.hexColour}
              color={transparent ? '' : hex}
              placeholder={TRANSPARENT}
              onChange={onChange}
              prefixed
            />
            <button
              type="button"
              className={`button secondary action-color-transparent${transparent ? ' selected' : ''}`}
              aria-pressed={transparent}
              onClick={() => onChange(TRANSPARENT)}
            >
              {EDITOR_TEXTS.transparent}
            </button>
          </div>
        </Popover>
      ) : null}
    </div>
  );
}
