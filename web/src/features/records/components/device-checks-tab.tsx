import type { DeviceCheckItem, DeviceCheckOutcome } from '@uis/proto';
import { useApiAllPages } from '../../../api/queries';
import { DEVICE_CHECK_ITEM_TEXTS as ITEM_LABELS } from '../../../i18n/en/common';
import { RecordTime } from './record-time';
import {
  DEVICE_CHECK_HEADER_TEXTS,
  RECORD_PANEL_TEXTS,
  RECORD_TABLE_TEXTS,
  roundTripMsText,
} from '../../../i18n/en/records';

/** The items in the device check's order (not imported from it: its texts would come along into this route). */
const ITEMS = Object.keys(ITEM_LABELS) as DeviceCheckItem[];

/** The items' column headers: short, for a table of nine columns. */
const HEADERS = {
  camera: ITEM_LABELS.camera,
  microphone: ITEM_LABELS.microphone,
  speakers: ITEM_LABELS.speakers,
  ...DEVICE_CHECK_HEADER_TEXTS,
} as const satisfies Record<DeviceCheckItem, string>;

const Outcome = ({ outcome }: { outcome: DeviceCheckOutcome }) => (
  <span className={`record-check record-check-${outcome}`}>
    {outcome === 'pass' ? RECORD_PANEL_TEXTS.pass : RECORD_PANEL_TEXTS.fail}
  </span>
);

/**
 * Ours: the participants' pre-session checks, so a researcher can tell why someone had no
 * video. Read-only: the participants store them; the study export has them (device-checks.csv).
 */
export function DeviceChecksTab({ sessionId }: { sessionId: string }) {
  const checks = useApiAllPages(
    'getDeviceChecks',
    { sessionId },
    { errorText: RECORD_PANEL_TEXTS.deviceChecksNotFetched },
  );
  const list = checks.data?.checks ?? [];
  if (list.length === 0)
    return (
      <p className="record-empty">
        {checks.isLoading ? RECORD_PANEL_TEXTS.loadingDeviceChecks : RECORD_PANEL_TEXTS.noDeviceChecks}
      </p>
    );
  return (
    <table className="record-table">
      <thead>
        <tr>
          <th scope="col">{RECORD_TABLE_TEXTS.time}</th>
          <th scope="col">{RECORD_TABLE_TEXTS.who}</th>
          <th scope="col">{RECORD_TABLE_TEXTS.browser}</th>
          {ITEMS.map((item) => (
            <th scope="col" key={item}>
              {HEADERS[item]}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {list.map((check) => (
          <tr key={check.device_check_id}>
            <td>
              <RecordTime iso={check.time} />
            </td>
            <td className="record-who">{check.name}</td>
            <td>{`${check.browserName} ${check.browserVersion}`}</td>
            {ITEMS.map((item) => (
              <td key={item}>
                <Outcome outcome={check[item]} />
                {item === 'rtt' && check.rttMs !== null ? roundTripMsText(check.rttMs) : null}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
