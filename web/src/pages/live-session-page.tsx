import { useParams } from 'react-router-dom';
import { ConsentGate } from '../features/consent/components/consent-gate';
import { LiveSession } from '../features/live-session/components/live-session';
import { stripLeadingColon } from '../routes';

/**
 * `/liveSession/:sessionId`: the path carries the id after a colon, which is stripped. A participant
 * agrees to the session's consent text first, when it has one.
 */
export function LiveSessionPage() {
  const { sessionId = '' } = useParams();
  const id = stripLeadingColon(sessionId);
  return (
    <ConsentGate key={id} sessionId={id}>
      <LiveSession sessionId={id} />
    </ConsentGate>
  );
}
