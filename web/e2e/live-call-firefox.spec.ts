import { enterSession, signUpThroughApi } from './support/api';
import {
  expectReceiving,
  recordPeerConnectionsScript,
  sentAudioScript,
  tileVideo,
} from './support/call-media';
import { callTest as test, chatSession, livePath, openLiveSession } from './support/call-session';
import { stack } from './support/stack-env';
import { expect } from './support/test';
import { emailOf } from './support/users';
import { launchFirefox, openSignedIn, waitForPicture } from './firefox/firefox';

/**
 * Many university users run Firefox: a call between Chromium (Playwright, fake devices) and
 * Firefox ESR (puppeteer-core over WebDriver BiDi, fake devices) must carry video both ways, with
 * the researcher on either side. `npm run e2e:firefox -w web` runs this file and live-session-firefox.spec.ts.
 */

test('Chromium and Firefox call each other, both ways, with the researcher in either', async ({
  browser,
}) => {
  test.setTimeout(150_000);
  const { baseUrl } = stack();
  const firefox = await launchFirefox();
  try {
    await test.step('the researcher in Chromium, a participant in Firefox', async () => {
      const { sessionId, researcher } = await chatSession(
        emailOf('fox-rosa'),
        'Rosa Chrome',
        'Cross-browser A',
      );
      const fern = await signUpThroughApi(emailOf('fox-fern'), 'Fern Firefox');
      await enterSession(sessionId, fern.accessToken);
      const desk = await openLiveSession(browser, researcher, sessionId);
      const fox = await openSignedIn(
        firefox,
        baseUrl,
        fern,
        livePath(sessionId),
        recordPeerConnectionsScript,
      );

      // Chromium's fake camera reaches Firefox, and Firefox's reaches Chromium.
      await waitForPicture(fox, 'Researcher');
      await expectReceiving(tileVideo(desk, 'Fern Firefox'));
      // Muted by default in Firefox too: the sent audio track is disabled.
      await expect.poll(() => fox.evaluate(sentAudioScript)).toEqual([false]);
      await fox.browserContext().close();
      await desk.context().close();
    });

    await test.step('the researcher in Firefox, a participant in Chromium', async () => {
      const { sessionId, researcher } = await chatSession(
        emailOf('fox-reid'),
        'Reid Firefox',
        'Cross-browser B',
      );
      const chris = await signUpThroughApi(emailOf('fox-chris'), 'Chris Chrome');
      const foxDesk = await openSignedIn(firefox, baseUrl, researcher, livePath(sessionId));
      const page = await openLiveSession(browser, chris, sessionId);

      await expectReceiving(tileVideo(page, 'Researcher'));
      await waitForPicture(foxDesk, 'Chris Chrome');
      await foxDesk.browserContext().close();
      await page.context().close();
    });
  } finally {
    await firefox.close();
  }
});
