import { SCREEN_TEXTS, UI_TEXTS, UPLOAD_ACCEPT } from '@uis/proto/browser';
import { useState } from 'react';
import { useApiMutation, useApiQuery } from '../../../api/queries';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Icon } from '../../../components/ui/icon';
import { IconButton } from '../../../components/ui/icon-button';
import { useVideoUpload } from '../hooks/use-video-upload';
import {
  EDITOR_TEXTS,
  VIDEO_DELETION_TEXTS,
  deleteVideoWarningText,
  uploadingText,
} from '../../../i18n/en/editor';

/**
 * The Source of a video session (spec section 2): an upload control for one .mp4, showing the
 * current video's name, or the 'upload file' placeholder when there is none. Its delete icon asks first.
 */
export function VideoSourceField({ sessionId, inputId }: { sessionId: string; inputId: string }) {
  const video = useApiQuery('getVideoInfo', { sessionId }, { errorText: UI_TEXTS.errorGettingVideoInfo });
  const removeVideo = useApiMutation('deleteVideo', {
    errorText: UI_TEXTS.errorDeletingVideo,
    invalidates: ['getVideoInfo'],
  });
  const upload = useVideoUpload(sessionId);
  const name = video.data?.name ?? null;
  const busy = upload.uploading || removeVideo.isPending;
  const [confirming, setConfirming] = useState(false);

  return (
    <div className="editor-field">
      <label className="editor-field-label" htmlFor={inputId}>
        {EDITOR_TEXTS.source}
      </label>
      <div className="video-source">
        <label className={`video-source-box${busy ? ' busy' : ''}`}>
          <input
            id={inputId}
            type="file"
            accept={UPLOAD_ACCEPT}
            className="visually-hidden"
            disabled={busy}
            onChange={(event) => {
              const file = event.target.files?.[0];
              // Cleared so choosing the same file again (after a failure) fires a change again.
              event.target.value = '';
              if (file) void upload.start(file);
            }}
          />
          <Icon name={upload.uploading ? 'hourglass_top' : 'upload_file'} className="video-source-icon" />
          {upload.uploading ? (
            <span className="video-source-name">{uploadingText(upload.percent)}</span>
          ) : name ? (
            <span className="video-source-name" title={name}>
              {name}
            </span>
          ) : (
            <span className="video-source-placeholder">{SCREEN_TEXTS.uploadPlaceholder}</span>
          )}
        </label>
        {name && !upload.uploading ? (
          <IconButton
            icon="delete"
            label={EDITOR_TEXTS.deleteVideo}
            disabled={busy}
            onClick={() => setConfirming(true)}
          />
        ) : null}
        {confirming && name ? (
          <ConfirmDialog
            title={VIDEO_DELETION_TEXTS.deleteHeading}
            message={deleteVideoWarningText(name)}
            confirmLabel={VIDEO_DELETION_TEXTS.deleteConfirm}
            busy={removeVideo.isPending}
            onConfirm={() => removeVideo.mutate({ sessionId }, { onSettled: () => setConfirming(false) })}
            onCancel={() => setConfirming(false)}
          />
        ) : null}
      </div>
      {upload.uploading ? (
        <progress
          className="video-source-progress"
          max={100}
          value={upload.percent}
          aria-label={EDITOR_TEXTS.uploadProgress}
        />
      ) : null}
      {upload.error ? (
        <p className="field-error" role="alert">
          {upload.error}
        </p>
      ) : null}
    </div>
  );
}
