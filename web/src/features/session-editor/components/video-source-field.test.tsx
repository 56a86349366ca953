import { UI_TEXTS } from '@uis/proto/browser';
import { act, fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { notify } from '../../../components/ui/toast';
import { tokens } from '../../../signed-in/tokens';
import {
  EDITOR_TEXTS,
  NOT_MP4_TEXT,
  VIDEO_DELETION_TEXTS,
  deleteVideoWarningText,
} from '../../../i18n/en/editor';
import { fakeApi, ok } from '../../../testing/fake-api';
import { renderWithApi } from '../../../testing/render';
import { VideoSourceField } from './video-source-field';

const sessionId = '6f1c2a8e-1d7b-4c1e-9a55-0b9f3f1e2d10';

/** The browser's XMLHttpRequest as far as the upload uses it: records the form, reports progress, answers. */
class FakeUpload {
  static sent: FakeUpload[] = [];
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: FormData | null = null;
  status = 0;
  response: unknown = null;
  withCredentials = false;
  responseType = '';
  upload: {
    onprogress: ((event: { lengthComputable: boolean; loaded: number; total: number }) => void) | null;
  } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: FormData) {
    this.body = body;
    FakeUpload.sent.push(this);
  }
  answer(status: number, response: unknown) {
    this.status = status;
    this.response = response;
    this.onload?.();
  }
}

function setup(videoName: string | null = null, handlers: Parameters<typeof fakeApi>[0] = {}) {
  FakeUpload.sent = [];
  vi.stubGlobal('XMLHttpRequest', FakeUpload);
  const api = fakeApi({ '/getVideoInfo': () => ok({ name: videoName }), ...handlers });
  renderWithApi(<VideoSourceField sessionId={sessionId} inputId="source" />);
  return api;
}

const choose = (name: string) =>
  act(async () => {
    const input = screen.getByLabelText<HTMLInputElement>('Source');
    fireEvent.change(input, { target: { files: [new File(['....ftypisom'], name, { type: 'video/mp4' })] } });
    await Promise.resolve();
  });

describe('VideoSourceField', () => {
  it('accepts .mp4 only, in the file dialog and before sending a byte', async () => {
    const error = vi.spyOn(notify, 'error');
    setup();
    expect(screen.getByLabelText<HTMLInputElement>('Source').accept).toBe('.mp4');
    expect(await screen.findByText('upload file')).toBeTruthy();
    await choose('clip.mov');
    expect(screen.getByRole('alert').textContent).toBe(NOT_MP4_TEXT);
    expect(error).toHaveBeenCalledWith(UI_TEXTS.errorUploadingVideo);
    expect(FakeUpload.sent).toHaveLength(0);
  });

  it('uploads an .mp4 with sessionId first, shows progress, then the stored name', async () => {
    let stored: string | null = null;
    FakeUpload.sent = [];
    vi.stubGlobal('XMLHttpRequest', FakeUpload);
    fakeApi({ '/getVideoInfo': () => ok({ name: stored }) });
    renderWithApi(<VideoSourceField sessionId={sessionId} inputId="source" />);
    await screen.findByText('upload file');
    await choose('My Clip.MP4');
    await vi.waitFor(() => expect(FakeUpload.sent).toHaveLength(1));
    const upload = FakeUpload.sent[0]!;
    expect([upload.method, upload.url]).toEqual(['POST', '/uploadVideo']);
    expect([...upload.body!.keys()]).toEqual(['sessionId', 'file']);
    expect(upload.body!.get('sessionId')).toBe(sessionId);

    act(() => upload.upload.onprogress?.({ lengthComputable: true, loaded: 42, total: 100 }));
    expect(screen.getByText('Uploading 42%')).toBeTruthy();
    expect(screen.getByLabelText<HTMLProgressElement>('Upload progress').value).toBe(42);

    stored = 'My_Clip.mp4';
    act(() => upload.answer(200, { status: 'SUCCESS', res: { name: stored } }));
    expect(await screen.findByText('My_Clip.mp4')).toBeTruthy();
    expect(screen.getByRole('button', { name: EDITOR_TEXTS.deleteVideo })).toBeTruthy();
  });

  it("shows the server's refusal and the spec toast", async () => {
    const error = vi.spyOn(notify, 'error');
    setup();
    await screen.findByText('upload file');
    await choose('fake.mp4');
    await vi.waitFor(() => expect(FakeUpload.sent).toHaveLength(1));
    act(() =>
      FakeUpload.sent[0]!.answer(415, {
        status: 'ERROR',
        res: { message: 'Only MP4 videos can be uploaded: this file is not an MP4.' },
      }),
    );
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Only MP4 videos can be uploaded: this file is not an MP4.',
    );
    expect(error).toHaveBeenCalledWith(UI_TEXTS.errorUploadingVideo);
  });

  it('renews an expired access token and sends the upload again with the new one', async () => {
    // Signed in: auth's readable marker beside its HttpOnly token cookies (sent by the browser).
    document.cookie = `signedIn=${Math.floor(Date.now() / 1000) + 900}; path=/`;
    const api = setup(null, {
      '/getAccessTokenFromRefreshToken': () => ok({ accessToken: 'fresh', refreshToken: '' }),
    });
    await screen.findByText('upload file');
    await choose('clip.mp4');
    await vi.waitFor(() => expect(FakeUpload.sent).toHaveLength(1));
    expect(FakeUpload.sent[0]!.headers).toEqual({ 'X-Requested-With': 'uis' });
    expect(FakeUpload.sent[0]!.withCredentials).toBe(true);

    act(() => FakeUpload.sent[0]!.answer(401, { status: 'ERROR', res: { message: 'Token expired.' } }));
    await vi.waitFor(() => expect(FakeUpload.sent).toHaveLength(2));
    expect(api.to('/getAccessTokenFromRefreshToken').map((request) => request.body)).toEqual([{}]);
    expect(FakeUpload.sent[1]!.headers).toEqual({ 'X-Requested-With': 'uis' });
    expect([...FakeUpload.sent[1]!.body!.keys()]).toEqual(['sessionId', 'file']);

    act(() => FakeUpload.sent[1]!.answer(200, { status: 'SUCCESS', res: { name: 'clip.mp4' } }));
    await vi.waitFor(() => expect(screen.queryByLabelText('Upload progress')).toBeNull());
    expect(screen.queryByRole('alert')).toBeNull();
    tokens.clear();
  });

  it('asks before deleting the uploaded video, naming it; Cancel keeps it', async () => {
    let name: string | null = 'pilot.mp4';
    const api = setup(null, {
      '/getVideoInfo': () => ok({ name }),
      '/deleteVideo': () => {
        name = null;
        return ok({ message: 'Video deleted.' });
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: EDITOR_TEXTS.deleteVideo }));
    const dialog = screen.getByRole('alertdialog', { name: VIDEO_DELETION_TEXTS.deleteHeading });
    expect(dialog.textContent).toContain(deleteVideoWarningText('pilot.mp4'));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(api.to('/deleteVideo')).toHaveLength(0);

    fireEvent.click(screen.getByRole('button', { name: EDITOR_TEXTS.deleteVideo }));
    fireEvent.click(
      within(screen.getByRole('alertdialog')).getByRole('button', {
        name: VIDEO_DELETION_TEXTS.deleteConfirm,
      }),
    );
    expect(await screen.findByText('upload file')).toBeTruthy();
    expect(api.to('/deleteVideo').map((request) => request.body)).toEqual([{ sessionId }]);
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });
});
