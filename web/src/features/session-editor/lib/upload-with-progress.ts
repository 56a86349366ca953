import { STATUS } from '@uis/proto/browser';
import type { AnswerOf, ErrorRes } from '@uis/proto';
import { ROUTES } from 'virtual:uis-routes';
import { ApiError } from '../../../api/client';
import { tokens } from '../../../auth/tokens';

/**
 * The video upload with progress: fetch cannot report upload progress, XMLHttpRequest can. Same
 * request as the api client's `upload` (multipart, sessionId first so the server can refuse a
 * stranger before the file is read, bearer token, no JSON header). The caller makes one signed-in
 * call before it, so an expired access token has been renewed by the client.
 */
export function uploadVideoWithProgress(
  sessionId: string,
  file: File,
  onProgress: (percent: number) => void,
): Promise<AnswerOf<'uploadVideo'>> {
  const { method, path, multipartFile } = ROUTES.uploadVideo;
  const form = new FormData();
  form.append('sessionId', sessionId);
  form.append(multipartFile ?? 'file', file);

  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open(method, path);
    request.withCredentials = true;
    const access = tokens.access();
    if (access) request.setRequestHeader('Authorization', `Bearer ${access}`);
    request.responseType = 'json';
    request.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0)
        onProgress(Math.round((event.loaded / event.total) * 100));
    };
    request.onload = () => {
      const body = request.response as { status?: string; res?: unknown } | null;
      if (body?.status === STATUS.SUCCESS) {
        resolve(body.res as AnswerOf<'uploadVideo'>);
        return;
      }
      const res = (body?.res ?? {}) as Partial<ErrorRes>;
      reject(new ApiError(res.message ?? `The server answered ${request.status}.`, request.status, res.code));
    };
    request.onerror = () => reject(new ApiError('The upload did not reach the server.', 0));
    request.onabort = () => reject(new ApiError('The upload was cancelled.', 0));
    request.send(form);
  });
}
