import { useParams } from 'react-router-dom';
import { ConsentGate } from '../features/consent/components/consent-gate';
import { DeviceCheck } from '../features/device-check/components/device-check';
import { stripLeadingColon } from '../routes';

/**
 * `/check/:sessionId` (ours): the pre-session check of a call session, after the consent (what it
 * checks and stores is the session's data, which the server gives only to those who agreed).
 */
export function DeviceCheckPage() {
  const { sessionId = '' } = useParams();
  const id = stripLeadingColon(sessionId);
  return (
    <ConsentGate key={id} sessionId={id}>
      <DeviceCheck sessionId={id} />
    </ConsentGate>
  );
}
