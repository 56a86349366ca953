import { useQueryClient } from '@tanstack/react-query';
import { UI_TEXTS } from '@uis/proto/browser';
import { useState } from 'react';
import { upload } from '../../../api/client';
import { apiKey } from '../../../api/queries';
import { notify } from '../../../components/ui/toast';
import { isMp4FileName } from '../lib/video-file';
import { NOT_MP4_TEXT } from '../../../i18n/en/editor';

/** The source upload of a video session: .mp4 only, with progress, then the video info is refetched. */
export function useVideoUpload(sessionId: string) {
  const queryClient = useQueryClient();
  const [percent, setPercent] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);

  const start = async (file: File): Promise<void> => {
    if (!isMp4FileName(file.name)) {
      setError(NOT_MP4_TEXT);
      notify.error(UI_TEXTS.errorUploadingVideo);
      return;
    }
    setError(null);
    setPercent(0);
    try {
      await upload('uploadVideo', { sessionId }, file, setPercent);
    } catch (cause) {
      setError(cause instanceof Error ? cause.message : String(cause));
      notify.error(UI_TEXTS.errorUploadingVideo);
    } finally {
      setPercent(null);
      await queryClient.invalidateQueries({ queryKey: apiKey('getVideoInfo') });
    }
  };

  return { uploading: percent !== null, percent: percent ?? 0, error, start };
}
