import { videoTimeText } from '../lib/record-format';
import { RECORD_PANEL_TEXTS } from '../../../i18n/en/records';

/** Where the video was when a record was made: beside its wall time, and in the export. */
export function VideoTime({ seconds }: { seconds: number | null }) {
  return (
    <span
      className="record-video-time"
      title={seconds === null ? RECORD_PANEL_TEXTS.notOnVideo : RECORD_PANEL_TEXTS.videoTime}
    >
      <span className="visually-hidden">
        {seconds === null ? RECORD_PANEL_TEXTS.noVideoTimeHidden : RECORD_PANEL_TEXTS.videoTimeHidden}{' '}
      </span>
      {videoTimeText(seconds)}
    </span>
  );
}
