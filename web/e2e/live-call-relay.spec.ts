import type { CallSettings } from '@uis/proto';
import type { BrowserContext, Page } from '@playwright/test';
import { api, signUpThroughApi } from './support/api';
import { expectReceiving, recordPeerConnections, tileVideo } from './support/call-media';
import { callTest as test, chatSession, openLiveSession, type Tokens } from './support/call-session';
import { stack } from './support/stack-env';
import { expect } from './support/test';
import {
  callTimes,
  changeCallSettings,
  closeChangedContext,
  recordCallTimesScript,
  selectedPairs,
  turnCredential,
} from './support/turn';
import { emailOf } from './support/users';
import { CALL_STATUS_TEXTS } from '../src/i18n/en/live-session';

/**
 * The chat call through the run's own TURN server (Debian's coturn on 127.0.0.1, global-setup):
 * two Chromium pages with fake devices, relay-only ICE, the media carried by the relay; and a
 * credential coturn refuses (a wrong HMAC, an expired one), which the participant is told about in
 * plain words while the researcher's monitor shows them unable to connect.
 *
 * The server runs one configuration for every spec of the run (ICE_TRANSPORT_POLICY=all), so this
 * spec plays a relay-only deployment, and a credential gone wrong, by changing /getCallSettings'
 * answer on its way to the pages; the credentials themselves are the server's, or made as it makes
 * them (services/signal/test/call-settings.test.ts covers the server's side).
 */

const callStatus = (page: Page) => page.getByRole('region', { name: 'Video call' }).getByRole('status');
const RELAY_REFUSED = /relay server turned this browser away.*Reload the page/;

/** The TURN entry of our own server in an answer (the last one: after ICE_SERVERS'). */
const ownTurn = (settings: CallSettings) => {
  const turn = settings.iceServers.at(-1);
  if (!turn?.username || !turn.credential)
    throw new Error(`no TURN credentials in ${JSON.stringify(settings)}`);
  return turn;
};

const relayOnly = (settings: CallSettings): CallSettings => ({ ...settings, iceTransportPolicy: 'relay' });

/** Relay only, with the given credential in place of the server's. */
const relayWith =
  (credentialFor: (userId: string) => { username: string; credential: string }) =>
  (settings: CallSettings): CallSettings => {
    const turn = ownTurn(settings);
    const userId = turn.username!.split(':')[1]!;
    return relayOnly({ ...settings, iceServers: [{ ...turn, ...credentialFor(userId) }] });
  };

/** A context that records its calls (peer connections, their times, TURN errors) and changes its settings. */
const preparing =
  (change: (settings: CallSettings) => CallSettings) =>
  async (context: BrowserContext): Promise<void> => {
    await recordPeerConnections(context);
    await context.addInitScript(recordCallTimesScript);
    await changeCallSettings(context, change);
  };

async function people(label: string): Promise<{ sessionId: string; researcher: Tokens; pat: Tokens }> {
  const { sessionId, researcher } = await chatSession(emailOf(`${label}-ruth`), 'Ruth Relay', 'Relay call');
  const pat = await signUpThroughApi(emailOf(`${label}-pat`), 'Pat Relay');
  return { sessionId, researcher, pat };
}

test('relay only: the call connects through coturn and carries the media; only people of the session get credentials', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const { sessionId, researcher, pat } = await people('relay');

  await test.step('the server gives the people of the session TURN credentials for coturn, and nobody else', async () => {
    const settings = await api('getCallSettings', { sessionId }, pat.accessToken);
    const turn = ownTurn(settings);
    expect(turn.urls).toEqual([stack().turnUrl]);
    expect(turn.username).toMatch(/^\d+:[0-9a-f-]{36}$/);
    expect(turn.credential).toBe(turnCredential(stack().turnSecret, turn.username!));
    const outsider = await signUpThroughApi(emailOf('relay-otto'), 'Otto Outside');
    await api('editSessionInfo', { sessionId, scope: [emailOf('relay-pat')] }, researcher.accessToken);
    await expect(api('getCallSettings', { sessionId }, outsider.accessToken)).rejects.toThrow(/answered 403/);
  });

  const desk = await openLiveSession(browser, researcher, sessionId, preparing(relayOnly));
  const patPage = await openLiveSession(browser, pat, sessionId, preparing(relayOnly));

  await test.step('both pages receive each other’s camera', async () => {
    await expectReceiving(tileVideo(patPage, 'Researcher'));
    await expectReceiving(tileVideo(desk, 'Pat Relay'));
    await expect(callStatus(patPage)).toHaveText(CALL_STATUS_TEXTS.inCallWithResearcher);
  });

  await test.step('getStats: each side’s selected pair has a relay candidate, and bytes came over it', async () => {
    for (const page of [patPage, desk]) {
      await expect
        .poll(async () => {
          const [pair] = await selectedPairs(page);
          return (
            pair && {
              policy: pair.iceTransportPolicy,
              relay: pair.localType === 'relay' || pair.remoteType === 'relay',
              bytes: pair.bytesReceived > 10_000,
            }
          );
        })
        .toEqual({ policy: 'relay', relay: true, bytes: true });
    }
    const [pair] = await selectedPairs(patPage);
    console.log(
      `[live-call-relay] selected pair ${pair!.localType} -> ${pair!.remoteType}, ${pair!.bytesReceived} bytes received`,
    );
  });

  await test.step('the time to connect through the relay, from the participant placing the call', async () => {
    // The first peer connection of a page is PeerJS's feature probe; the call's is the one that connected.
    const call = (await callTimes(patPage)).find((times) => times.connected !== null);
    expect(call).toBeDefined();
    console.log(
      `[live-call-relay] connected through the relay in ${Math.round(call!.connected! - call!.created)} ms`,
    );
  });

  await test.step('the researcher’s monitor shows the participant in the call', async () => {
    const row = desk.locator('.live-monitor').getByRole('listitem', { name: 'Pat Relay, connected' });
    await expect(row.locator('.live-monitor-call.connected')).toBeVisible({ timeout: 15_000 });
  });

  for (const page of [desk, patPage]) await closeChangedContext(page.context());
});

for (const [kind, credentialFor] of [
  [
    'a wrong HMAC',
    (userId: string) => {
      const username = `${Math.floor(Date.now() / 1000) + 3600}:${userId}`;
      return { username, credential: turnCredential('not-the-secret-coturn-was-given-0123456789', username) };
    },
  ],
  [
    'an expired credential',
    (userId: string) => {
      const username = `${Math.floor(Date.now() / 1000) - 60}:${userId}`;
      return { username, credential: turnCredential(stack().turnSecret, username) };
    },
  ],
] as const) {
  test(`coturn refuses ${kind}: the participant is told in plain words, the monitor shows them unable to connect`, async ({
    browser,
  }) => {
    test.setTimeout(90_000);
    const label = kind === 'a wrong HMAC' ? 'hmac' : 'expired';
    const { sessionId, researcher, pat } = await people(`relay-${label}`);
    const desk = await openLiveSession(browser, researcher, sessionId, preparing(relayOnly));
    const patPage = await openLiveSession(browser, pat, sessionId, preparing(relayWith(credentialFor)));

    await expect(callStatus(patPage)).toHaveText(RELAY_REFUSED, { timeout: 30_000 });
    // coturn answered the allocation with 401 Unauthorized: a refusal, not a server out of reach.
    expect((await callTimes(patPage)).flatMap((call) => call.turnErrors)).toContain(401);

    const row = desk.locator('.live-monitor').getByRole('listitem', { name: 'Pat Relay, connected' });
    await expect(row.locator('.live-monitor-call.failed')).toHaveText(/not in the call: cannot connect/, {
      timeout: 15_000,
    });
    // The researcher's own credentials were fine: their page does not blame their network.
    await expect(callStatus(desk)).not.toHaveText(RELAY_REFUSED);

    for (const page of [desk, patPage]) await closeChangedContext(page.context());
  });
}
