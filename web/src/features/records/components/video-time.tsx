import { videoTimeText } from '../lib/record-format';

/** Where the video was when a record was made: beside its wall time, and in the export. */
export function VideoTime({ seconds }: { seconds: number | null }) {
  return (
    <span
      className="record-video-time"
      title={seconds === null ? 'Not on the video (nothing was playing)' : 'Video time'}
    >
      <span className="visually-hidden">{seconds === null ? 'no video time' : 'video time'} </span>
      {videoTimeText(seconds)}
    </span>
  );
}
