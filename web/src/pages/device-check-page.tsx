import { useParams } from 'react-router-dom';
import { DeviceCheck } from '../features/device-check/components/device-check';
import { stripLeadingColon } from '../routes';

/** `/check/:sessionId` (ours, issue 16): the pre-session check of a call session. */
export function DeviceCheckPage() {
  const { sessionId = '' } = useParams();
  const id = stripLeadingColon(sessionId);
  return <DeviceCheck key={id} sessionId={id} />;
}
