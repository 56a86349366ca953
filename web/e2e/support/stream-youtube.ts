/// <reference types="node" />
import { expect, type BrowserContext, type Frame, type FrameLocator, type Page } from '@playwright/test';

/**
 * A small local YouTube for the stream specs, served through Playwright's routing in place of
 * https://www.youtube.com, so no test reaches the internet. It speaks the real IFrame API's
 * protocol, and the app's real integration code (youtube-iframe-api.ts, youtube-player.ts,
 * youtube-adapter.ts) runs against it unchanged:
 *
 * - /iframe_api is a loader that adds the widget script (as the real one adds www-widgetapi.js),
 *   which defines YT.Player and calls onYouTubeIframeAPIReady when it has loaded: asynchronously.
 * - YT.Player replaces its element with an iframe of /embed/<id>?enablejsapi=1&origin=...&widgetid=n,
 *   says 'listening' until the iframe answers 'initialDelivery' (the method list and the player's
 *   state) and 'onReady'; its methods exist only from then. Getters read a cache the iframe fills with
 *   'infoDelivery' messages; getCurrentTime adds the time since the last delivery while playing
 *   (at most 1 s), as the real one does. Commands are postMessage'd, queued until ready; the iframe
 *   sends only the events the parent subscribed to ('addEventListener' commands).
 * - The iframe holds the player: the real numeric states (first play UNSTARTED, BUFFERING, PLAYING;
 *   a seek while playing buffers for a moment; seeking a cued video starts it, as the reference says),
 *   a clock that runs while playing at the rate, the rates YouTube offers (a rate it lacks is rounded
 *   toward 1), mute, the end of the video, its own controls (with controls=1: a play/pause button, a
 *   seek bar; a click on the picture toggles playback as on YouTube) and a picture drawn with the time.
 * - The video id 'unavailable' answers onError 100 (not found) once the parent listens for errors.
 *
 * `window.fakeYouTube.snapshot()` in the iframe is the player's truth for the tests.
 */

const WIDGET_PATH = '/s/player/fake0000/www-widgetapi.vflset/www-widgetapi.js';

/** YouTube's loader: sets up YT and adds the widget script. */
const LOADER = String.raw`
(function () {
  if (!window.YT) window.YT = { loading: 0, loaded: 0 };
  if (window.YT.loading) return;
  window.YT.loading = 1;
  var callbacks = [];
  window.YT.ready = function (f) { if (window.YT.loaded) f(); else callbacks.push(f); };
  window.onYTReady = function () {
    window.YT.loaded = 1;
    for (var i = 0; i < callbacks.length; i++) callbacks[i]();
    callbacks = [];
  };
  var script = document.createElement('script');
  script.id = 'www-widgetapi-script';
  script.src = 'https://www.youtube.com${WIDGET_PATH}';
  script.async = true;
  var first = document.getElementsByTagName('script')[0];
  first.parentNode.insertBefore(script, first);
})();
`;

/** The widget API: YT.Player on the page's side. */
const WIDGET_API = String.raw`
(function () {
  'use strict';
  var YT = window.YT;
  var nextId = 1;

  function Player(elementOrId, options) {
    var element = typeof elementOrId === 'string' ? document.getElementById(elementOrId) : elementOrId;
    if (!element) throw new Error('YouTube player element ID required.');
    var settings = { title: 'video player', videoId: '', width: 640, height: 360 };
    for (var key in options || {}) settings[key] = options[key];
    var self = this;
    this.id = nextId++;
    this.playerInfo = {};
    this.listeners = {};
    this.subscribed = {};
    this.queue = [];
    this.ready = false;
    this.original = element;
    this.host = settings.host || 'https://www.youtube.com';

    var iframe = document.createElement('iframe');
    for (var i = 0; i < element.attributes.length; i++) {
      var attribute = element.attributes[i];
      if (attribute.value) iframe.setAttribute(attribute.name, attribute.value);
    }
    iframe.setAttribute('frameBorder', '0');
    iframe.setAttribute('allowfullscreen', '1');
    iframe.setAttribute('allow', 'accelerometer; autoplay; clipboard-write; encrypted-media; gyroscope; picture-in-picture; web-share');
    iframe.setAttribute('referrerpolicy', 'strict-origin-when-cross-origin');
    iframe.setAttribute('title', 'YouTube ' + settings.title);
    iframe.setAttribute('width', settings.width);
    iframe.setAttribute('height', settings.height);
    var vars = {};
    for (var name in settings.playerVars || {}) vars[name] = settings.playerVars[name];
    vars.enablejsapi = 1;
    vars.origin = window.location.protocol + '//' + window.location.host;
    vars.widgetid = this.id;
    iframe.src = this.host + '/embed/' + encodeURIComponent(settings.videoId) + '?' + new URLSearchParams(vars);
    if (!iframe.id) iframe.id = 'widget' + this.id;
    element.parentNode.replaceChild(iframe, element);
    this.iframe = iframe;

    var events = settings.events || {};
    for (var event in events) this.addEventListener(event, events[event]);

    this.onMessage = function (message) {
      if (!self.iframe || message.origin !== self.host || message.source !== self.iframe.contentWindow) return;
      var data;
      try { data = JSON.parse(message.data); } catch (error) { return; }
      if (data && data.id === self.id) self.receive(data.event, data.info);
    };
    window.addEventListener('message', this.onMessage);
    var listen = function () { self.post({ event: 'listening' }); };
    this.listening = setInterval(listen, 250);
    iframe.addEventListener('load', function () {
      clearInterval(self.listening);
      self.listening = setInterval(listen, 250);
      listen();
    });
  }

  Player.prototype.post = function (message) {
    message.id = this.id;
    message.channel = 'widget';
    if (this.iframe && this.iframe.contentWindow) this.iframe.contentWindow.postMessage(JSON.stringify(message), this.host);
  };
  Player.prototype.command = function (func, args) {
    var message = { event: 'command', func: func, args: Array.prototype.slice.call(args || []) };
    if (this.ready) this.post(message); else this.queue.push(message);
  };
  Player.prototype.addEventListener = function (event, listener) {
    if (typeof listener === 'string') { var named = listener; listener = function () { window[named].apply(window, arguments); }; }
    (this.listeners[event] = this.listeners[event] || []).push(listener);
    if (event !== 'onReady' && !this.subscribed[event]) {
      this.subscribed[event] = true;
      this.command('addEventListener', [event]);
    }
    return this;
  };
  Player.prototype.receive = function (event, info) {
    switch (event) {
      case 'initialDelivery':
        clearInterval(this.listening);
        this.playerInfo = {};
        this.defineApi(info.apiInterface || []);
        for (var key in info) this.playerInfo[key] = info[key];
        break;
      case 'infoDelivery':
        for (var field in info) this.playerInfo[field] = info[field];
        break;
      case 'onReady':
        this.ready = true;
        var queued = this.queue.splice(0);
        for (var i = 0; i < queued.length; i++) this.post(queued[i]);
        this.dispatch('onReady', undefined);
        break;
      default:
        this.dispatch(event, info);
    }
  };
  Player.prototype.dispatch = function (event, data) {
    var listeners = (this.listeners[event] || []).slice();
    for (var i = 0; i < listeners.length; i++) listeners[i]({ target: this, data: data });
  };
  Player.prototype.defineApi = function (names) {
    var self = this;
    names.forEach(function (name) {
      if (self[name]) return;
      if (name === 'getCurrentTime') {
        self[name] = function () {
          var time = self.playerInfo.currentTime;
          if (self.playerInfo.playerState === 1) {
            var moved = (Date.now() / 1000 - self.playerInfo.currentTimeLastUpdated_) * self.playerInfo.playbackRate;
            if (moved > 0) time += Math.min(moved, 1);
          }
          return time;
        };
      } else if (/^(get|is)/.test(name)) {
        var key = name.replace(/^(get|is)/, '');
        key = key.charAt(0).toLowerCase() + key.slice(1);
        self[name] = function () { return self.playerInfo[key]; };
      } else {
        self[name] = function () { self.command(name, arguments); return self; };
      }
    });
  };
  Player.prototype.getIframe = function () { return this.iframe; };
  Player.prototype.destroy = function () {
    clearInterval(this.listening);
    window.removeEventListener('message', this.onMessage);
    if (this.iframe && this.iframe.parentNode) this.iframe.parentNode.replaceChild(this.original, this.iframe);
    this.iframe = null;
    this.ready = false;
  };

  YT.Player = Player;
  YT.PlayerState = { UNSTARTED: -1, ENDED: 0, PLAYING: 1, PAUSED: 2, BUFFERING: 3, CUED: 5 };
  // As the real script ends: the page learns the API is there.
  if (window.onYTReady) window.onYTReady();
  if (window.onYouTubeIframeAPIReady) window.onYouTubeIframeAPIReady();
})();
`;

/** The embedded player: what https://www.youtube.com/embed/<id> serves. */
const EMBED = String.raw`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Fake YouTube player</title>
<style>
  html, body { margin: 0; height: 100%; background: #000; overflow: hidden; font: 13px/1.2 sans-serif; color: #fff; }
  canvas { display: block; width: 100%; height: 100%; }
  .bar { position: absolute; left: 0; right: 0; bottom: 0; display: flex; gap: 10px; align-items: center;
         padding: 8px 12px; background: linear-gradient(transparent, rgba(0, 0, 0, 0.75)); }
  .bar[hidden] { display: none; }
  .bar button { min-width: 56px; padding: 4px 8px; border: 0; border-radius: 4px; background: #fff; color: #000; font-weight: 600; }
  .bar input { flex: 1; accent-color: #f00; }
</style>
</head>
<body>
<canvas width="640" height="360" aria-hidden="true"></canvas>
<div class="bar" hidden>
  <button type="button" id="toggle">Play</button>
  <input id="seek" type="range" min="0" max="600" step="0.1" value="0" aria-label="Seek">
  <span id="clock">0:00 / 10:00</span>
</div>
<script>
(function () {
  'use strict';
  var UNSTARTED = -1, ENDED = 0, PLAYING = 1, PAUSED = 2, BUFFERING = 3, CUED = 5;
  var DURATION = 600;
  var RATES = [0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75, 2];
  /** A first play buffers this long; a seek while playing this long; pause and resume take a moment. */
  var START_MS = 300, SEEK_MS = 250, STEP_MS = 30, PROGRESS_MS = 500;
  var API = ['cueVideoById', 'loadVideoById', 'playVideo', 'pauseVideo', 'stopVideo', 'seekTo', 'setPlaybackRate',
    'getPlaybackRate', 'getAvailablePlaybackRates', 'mute', 'unMute', 'isMuted', 'setVolume', 'getVolume',
    'getPlayerState', 'getCurrentTime', 'getDuration', 'getVideoLoadedFraction', 'getVideoUrl'];

  var params = new URLSearchParams(location.search);
  var videoId = decodeURIComponent(location.pathname.split('/').pop() || '');
  var controls = params.get('controls') !== '0';
  var origin = params.get('origin');
  var unavailable = videoId === 'unavailable';

  var state = CUED, base = 0, since = performance.now(), rate = 1, volume = 100;
  var muted = params.get('mute') === '1';
  var parent = null, widgetId = null, subscribed = {}, pending = null;

  function position() {
    var moved = state === PLAYING ? ((performance.now() - since) / 1000) * rate : 0;
    return Math.min(DURATION, base + moved);
  }
  function settle() { base = position(); since = performance.now(); }
  function info() {
    return {
      playerState: state, currentTime: position(), currentTimeLastUpdated_: Date.now() / 1000, duration: DURATION,
      playbackRate: rate, availablePlaybackRates: RATES, muted: muted, volume: volume,
      videoLoadedFraction: 1, videoUrl: 'https://www.youtube.com/watch?v=' + videoId,
    };
  }
  function send(event, payload) {
    if (parent) parent.postMessage(JSON.stringify({ event: event, info: payload === undefined ? null : payload, id: widgetId, channel: 'widget' }), origin || '*');
  }
  function deliver() { send('infoDelivery', info()); }
  function setState(next) {
    settle();
    state = next;
    deliver();
    if (subscribed.onStateChange) send('onStateChange', next);
  }
  function later(ms, step) {
    clearTimeout(pending);
    pending = setTimeout(function () { pending = null; step(); }, ms);
  }
  /** From cued, unstarted or ended: UNSTARTED, BUFFERING, then PLAYING once buffered. */
  function start(bufferMs) {
    if (state === CUED) setState(UNSTARTED);
    setState(BUFFERING);
    later(bufferMs, function () { setState(PLAYING); });
  }

  var commands = {
    playVideo: function () {
      if (unavailable) return;
      // The last command wins: a pause on its way is called off, a buffering player plays once buffered.
      if (state === PLAYING) { clearTimeout(pending); pending = null; return; }
      if (state === BUFFERING) return later(SEEK_MS, function () { setState(PLAYING); });
      if (state === PAUSED) return later(STEP_MS, function () { setState(PLAYING); });
      if (state === ENDED) base = 0;
      start(START_MS);
    },
    pauseVideo: function () {
      if (state !== PLAYING && state !== BUFFERING) return;
      later(STEP_MS, function () { setState(PAUSED); });
    },
    seekTo: function (seconds) {
      if (unavailable) return;
      var target = Math.max(0, Math.min(DURATION, Number(seconds) || 0));
      settle();
      base = target;
      if (state === PLAYING || state === BUFFERING) {
        setState(BUFFERING);
        later(SEEK_MS, function () { setState(PLAYING); });
      } else if (state === PAUSED) {
        setTimeout(deliver, STEP_MS);
      } else {
        // "If the function is called from another state (playing, video cued, etc.), the player will play the video."
        start(SEEK_MS);
      }
    },
    setPlaybackRate: function (suggested) {
      var wanted = Number(suggested);
      if (!(wanted > 0)) return;
      // A rate the video lacks is rounded toward 1 (the reference's words).
      var next = wanted >= 1
        ? RATES.filter(function (r) { return r <= wanted; }).pop()
        : RATES.filter(function (r) { return r >= wanted; })[0];
      if (next === undefined || next === rate) return;
      settle();
      rate = next;
      deliver();
      if (subscribed.onPlaybackRateChange) send('onPlaybackRateChange', rate);
    },
    mute: function () { muted = true; deliver(); },
    unMute: function () { muted = false; deliver(); },
    setVolume: function (value) { volume = Number(value); deliver(); },
    addEventListener: function (event) {
      subscribed[event] = true;
      if (event === 'onError' && unavailable) setTimeout(function () { send('onError', 100); }, 100);
    },
  };

  window.addEventListener('message', function (message) {
    if (origin && message.origin !== origin) return;
    var data;
    try { data = JSON.parse(message.data); } catch (error) { return; }
    if (!data) return;
    if (data.event === 'listening') {
      if (parent) return;
      parent = message.source;
      widgetId = data.id;
      var initial = info();
      initial.apiInterface = API;
      send('initialDelivery', initial);
      send('onReady');
      return;
    }
    if (data.event === 'command' && commands[data.func]) commands[data.func].apply(null, data.args || []);
  });

  // The progress YouTube reports while playing, and the end of the video.
  setInterval(function () {
    if (state !== PLAYING) return;
    if (position() >= DURATION) { base = DURATION; setState(ENDED); } else deliver();
  }, PROGRESS_MS);

  // Its own controls, as YouTube shows them (controls=1): what the researcher drives.
  var bar = document.querySelector('.bar');
  var toggle = document.getElementById('toggle');
  var seek = document.getElementById('seek');
  var clock = document.getElementById('clock');
  bar.hidden = !controls;
  function playOrPause() {
    if (state === PLAYING || state === BUFFERING) commands.pauseVideo(); else commands.playVideo();
  }
  toggle.addEventListener('click', playOrPause);
  seek.addEventListener('change', function () { commands.seekTo(seek.value); });
  document.querySelector('canvas').addEventListener('click', playOrPause);

  // The picture: colour bars, the time large, a bar across for the position.
  var canvas = document.querySelector('canvas');
  var context = canvas.getContext('2d');
  var COLOURS = ['#c0c0c0', '#c0c000', '#00c0c0', '#00c000', '#c000c0', '#c00000', '#0000c0'];
  function text(seconds) {
    var whole = Math.floor(seconds);
    return Math.floor(whole / 60) + ':' + String(whole % 60).padStart(2, '0');
  }
  function draw() {
    var t = position();
    var w = canvas.width, h = canvas.height;
    for (var i = 0; i < COLOURS.length; i++) {
      context.fillStyle = COLOURS[i];
      context.fillRect((i * w) / COLOURS.length, 0, w / COLOURS.length + 1, h * 0.7);
    }
    context.fillStyle = '#111';
    context.fillRect(0, h * 0.7, w, h * 0.3);
    context.fillStyle = '#f00';
    context.fillRect(0, h * 0.7, (w * t) / DURATION, 6);
    context.fillStyle = '#fff';
    context.font = 'bold 48px sans-serif';
    context.textAlign = 'center';
    context.fillText(t.toFixed(1) + ' s', w / 2, h * 0.42);
    context.font = '16px sans-serif';
    context.fillText('Fake YouTube · ' + videoId, w / 2, h * 0.88);
    if (controls) {
      toggle.textContent = state === PLAYING || state === BUFFERING ? 'Pause' : 'Play';
      if (document.activeElement !== seek) seek.value = String(t);
      clock.textContent = text(t) + ' / ' + text(DURATION);
    }
    requestAnimationFrame(draw);
  }
  requestAnimationFrame(draw);

  window.fakeYouTube = {
    snapshot: function () {
      return { state: state, time: position(), rate: rate, muted: muted, controls: controls, videoId: videoId, at: performance.timeOrigin + performance.now() };
    },
  };
})();
</script>
</body>
</html>
`;

/**
 * Serves the fake in place of YouTube for every page of `context`; whatever else a YouTube player
 * would fetch is refused, so a test never reaches the internet.
 */
export async function installFakeYouTube(context: BrowserContext): Promise<void> {
  await context.route('https://www.youtube.com/**', async (route) => {
    const { pathname } = new URL(route.request().url());
    if (pathname === '/iframe_api') {
      return route.fulfill({ contentType: 'text/javascript; charset=utf-8', body: LOADER });
    }
    if (pathname === WIDGET_PATH) {
      return route.fulfill({ contentType: 'text/javascript; charset=utf-8', body: WIDGET_API });
    }
    if (pathname.startsWith('/embed/')) {
      return route.fulfill({ contentType: 'text/html; charset=utf-8', body: EMBED });
    }
    return route.fulfill({ status: 404, contentType: 'text/plain', body: 'not in the fake' });
  });
  for (const elsewhere of [
    'https://www.youtube-nocookie.com/**',
    'https://*.ytimg.com/**',
    'https://*.googlevideo.com/**',
    'https://*.doubleclick.net/**',
  ]) {
    await context.route(elsewhere, (route) => route.abort());
  }
}

/** What the fake player in a page's iframe holds (its truth, not the page's cache of it). */
export interface YouTubeSnapshot {
  state: number;
  time: number;
  rate: number;
  muted: boolean;
  controls: boolean;
  videoId: string;
  /** Epoch ms when it was taken (the machine's clock, the same for every page). */
  at: number;
}

const EMBED_PREFIX = 'https://www.youtube.com/embed/';

/** The page's YouTube player frame, once it is there. */
export async function youTubeFrame(page: Page): Promise<Frame> {
  let frame: Frame | undefined;
  await expect
    .poll(() => (frame = page.frames().find((candidate) => candidate.url().startsWith(EMBED_PREFIX))), {
      timeout: 20_000,
    })
    .toBeTruthy();
  return frame as Frame;
}

export const youTubeSnapshot = async (page: Page): Promise<YouTubeSnapshot> =>
  (await youTubeFrame(page)).evaluate(() =>
    (window as unknown as { fakeYouTube: { snapshot(): YouTubeSnapshot } }).fakeYouTube.snapshot(),
  );

/** The player's own controls in its iframe (the researcher's: controls=1). */
export const youTubeControls = (page: Page): FrameLocator =>
  page.frameLocator(`iframe[src^="${EMBED_PREFIX}"]`);
