import { recordTimeParts } from '../lib/record-format';

/** A record's time in local time; on a narrow panel the date and the time wrap apart, never inside. */
export function RecordTime({ iso, className }: { iso: string; className?: string }) {
  const parts = recordTimeParts(iso);
  return (
    <time className={`record-when${className ? ` ${className}` : ''}`} dateTime={iso}>
      {parts ? (
        <>
          <span>{parts.date}</span> <span>{parts.time}</span>
        </>
      ) : (
        iso
      )}
    </time>
  );
}
