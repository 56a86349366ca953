import { SIGN_IN_PROVIDER_ERRORS, SIGN_IN_PROVIDER_MESSAGES } from '@uis/proto/browser';
import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { signInExpected } from '../expected-sign-in';
import { rememberedReturnPath } from '../remembered-return-path';
import { fakeApi, ok } from '../../../testing/fake-api';
import { renderScreen } from '../../../testing/render';
import { ProviderButtons } from './provider-buttons';

describe('ProviderButtons', () => {
  it('shows a link per configured provider, to its sign-in start', async () => {
    fakeApi({
      '/getSignInProviders': () =>
        ok({
          providers: [
            { id: 'google', label: 'Sign in with Google' },
            { id: 'uni', label: 'University login' },
          ],
        }),
    });
    renderScreen('/', '/', <ProviderButtons />);
    const uni = await screen.findByRole('link', { name: 'University login' });
    expect(new URL(uni.getAttribute('href')!, 'http://app.test').pathname).toBe('/oidc/start');
    expect(new URL(uni.getAttribute('href')!, 'http://app.test').searchParams.get('provider')).toBe('uni');
    expect(screen.getByRole('link', { name: 'Sign in with Google' })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows no button and no divider when no provider is configured', async () => {
    const server = fakeApi({ '/getSignInProviders': () => ok({ providers: [] }) });
    renderScreen('/', '/', <ProviderButtons />);
    // (StrictMode asks twice.)
    await vi.waitFor(() => expect(server.to('/getSignInProviders').length).toBeGreaterThan(0));
    expect(screen.queryByRole('link')).toBeNull();
    expect(screen.queryByText('or')).toBeNull();
  });

  it('says why a sign-in with a provider failed, and ignores a code it does not know', () => {
    fakeApi({ '/getSignInProviders': () => ok({ providers: [] }) });
    const { unmount } = renderScreen('/login?signInError=unverified', '/login', <ProviderButtons />);
    expect(screen.getByRole('alert').textContent).toContain(SIGN_IN_PROVIDER_ERRORS.unverified);
    unmount();
    renderScreen('/login?signInError=<script>', '/login', <ProviderButtons />);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says a link was mailed when the provider is not trusted for the address, as news, not a failure', () => {
    fakeApi({ '/getSignInProviders': () => ok({ providers: [] }) });
    renderScreen('/login?signInError=linkSent', '/login', <ProviderButtons />);
    expect(screen.getByRole('status').textContent).toContain(SIGN_IN_PROVIDER_MESSAGES.linkSent);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('remembers the page to come back to before leaving for the provider', async () => {
    fakeApi({ '/getSignInProviders': () => ok({ providers: [{ id: 'uni', label: 'University login' }] }) });
    localStorage.clear();
    renderScreen('/', '/', <ProviderButtons returnPath="/join/tok?PROLIFIC_PID=abc" />);
    const uni = await screen.findByRole('link', { name: 'University login' });
    // jsdom does not navigate; the click's handler is what runs.
    uni.addEventListener('click', (event) => event.preventDefault());
    fireEvent.click(uni);
    expect(rememberedReturnPath()).toBe('/join/tok?PROLIFIC_PID=abc');
    // It comes back through the link's landing with its e-mail: signed in there at once.
    expect(signInExpected('whoever@uni.example')).toBe(true);
    localStorage.clear();
  });
});
