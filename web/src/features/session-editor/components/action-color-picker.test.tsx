import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { ActionColorPicker } from './action-color-picker';

function Harness({ initial, onChange }: { initial: string; onChange: (color: string) => void }) {
  const [color, setColor] = useState(initial);
  return (
    <ActionColorPicker
      value={color}
      onChange={(next) => {
        setColor(next);
        onChange(next);
      }}
    />
  );
}

describe('ActionColorPicker', () => {
  it('takes a typed hex colour and the transparent choice', () => {
    const onChange = vi.fn();
    render(<Harness initial="#000000" onChange={onChange} />);
    fireEvent.click(screen.getByRole('button', { name: 'Colour #000000' }));
    const hex = screen.getByLabelText<HTMLInputElement>('Hex colour');
    fireEvent.change(hex, { target: { value: 'ff8800' } });
    expect(onChange).toHaveBeenLastCalledWith('#ff8800');

    const transparent = screen.getByRole('button', { name: 'Transparent' });
    expect(transparent.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(transparent);
    expect(onChange).toHaveBeenLastCalledWith('transparent');
    expect(transparent.getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByRole('button', { name: 'Colour transparent' })).toBeTruthy();
    // Transparent has no hex to show; typing one leaves it.
    expect(hex.value.replace('#', '')).toBe('');
    fireEvent.change(hex, { target: { value: '#abc' } });
    expect(onChange).toHaveBeenLastCalledWith('#abc');
  });

  it('ignores text that is not a hex colour and closes on Escape', () => {
    const onChange = vi.fn();
    render(<Harness initial="#123456" onChange={onChange} />);
    fireEvent.click(screen.getByRole('button', { name: 'Colour #123456' }));
    fireEvent.change(screen.getByLabelText('Hex colour'), { target: { value: 'zz' } });
    expect(onChange).not.toHaveBeenCalled();
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
