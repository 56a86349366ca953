import type { Scope } from '@uis/proto';
import { act, fireEvent, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { fakeApi, ok } from '../../../testing/fake-api';
import { renderWithApi } from '../../../testing/render';
import { ScopeSelect } from './scope-select';

/** The picker with the scope it holds shown beside it, as the editor's draft would hold it. */
function Picker({ initial }: { initial: Scope }) {
  const [scope, setScope] = useState<Scope>(initial);
  return (
    <>
      <label htmlFor="scope">Scope</label>
      <ScopeSelect inputId="scope" value={scope} onChange={setScope} />
      <output data-testid="scope">{JSON.stringify(scope)}</output>
    </>
  );
}

async function setup(initial: Scope = 'Everyone') {
  fakeApi({ '/getAllParticipants': () => ok({ participants: [{ email: 'ann@example.com', name: 'Ann' }] }) });
  renderWithApi(<Picker initial={initial} />);
  await act(() => Promise.resolve());
  return { input: screen.getByLabelText('Scope'), scope: () => screen.getByTestId('scope').textContent };
}

function paste(target: HTMLElement, text: string) {
  const event = new Event('paste', { bubbles: true, cancelable: true });
  Object.assign(event, { clipboardData: { getData: () => text } });
  act(() => {
    target.dispatchEvent(event);
  });
  return event;
}

describe('ScopeSelect: any e-mail', () => {
  it('invites a typed address that has no account, in place of Everyone', async () => {
    const { input, scope } = await setup();
    fireEvent.change(input, { target: { value: ' New.Person@Uni.edu ' } });
    fireEvent.click(screen.getByText('Invite new.person@uni.edu'));
    expect(scope()).toBe('["new.person@uni.edu"]');
  });

  it('offers no invitation for what is not an address, and keeps the directory as suggestions', async () => {
    const { input } = await setup([]);
    fireEvent.change(input, { target: { value: 'ann' } });
    expect(screen.queryByText(/^Invite/)).toBeNull();
    expect(screen.getByText('Ann (ann@example.com)')).toBeTruthy();
    // A directory address is picked as itself, not invited as new.
    fireEvent.change(input, { target: { value: 'ann@example.com' } });
    expect(screen.queryByText(/^Invite/)).toBeNull();
  });

  it('adds each address of a pasted list and names the entries that are not addresses', async () => {
    const { input, scope } = await setup(['ann@example.com']);
    const event = paste(input, 'bo@uni.edu, cy@uni.edu\nnot-an-address\nann@example.com; Dee@Uni.edu');
    expect(event.defaultPrevented).toBe(true);
    expect(scope()).toBe('["ann@example.com","bo@uni.edu","cy@uni.edu","dee@uni.edu"]');
    expect(screen.getByRole('alert').textContent).toBe(
      '“not-an-address” is not an e-mail address, so it was not added.',
    );
    expect(input.getAttribute('aria-invalid')).toBe('true');
  });

  it('leaves a single pasted entry to the field, to be confirmed', async () => {
    const { input, scope } = await setup();
    expect(paste(input, 'bo@uni.edu').defaultPrevented).toBe(false);
    expect(scope()).toBe('"Everyone"');
  });

  it('ends an address at a typed comma, keeping what follows in the field', async () => {
    const { input, scope } = await setup([]);
    fireEvent.change(input, { target: { value: 'bo@uni.edu, c' } });
    expect(scope()).toBe('["bo@uni.edu"]');
    expect((input as HTMLInputElement).value).toBe('c');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('keeps an address typed but not confirmed when the field is left; names a non-address', async () => {
    const { input, scope } = await setup([]);
    fireEvent.change(input, { target: { value: 'bo@uni.edu' } });
    fireEvent.blur(input);
    expect(scope()).toBe('["bo@uni.edu"]');
    fireEvent.focus(input);
    fireEvent.change(input, { target: { value: 'bob' } });
    fireEvent.blur(input);
    expect(scope()).toBe('["bo@uni.edu"]');
    expect(screen.getByRole('alert').textContent).toBe(
      '“bob” is not an e-mail address, so it was not added.',
    );
  });
});
