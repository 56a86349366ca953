import { ParticipantSessions } from '../features/my-sessions/components/participant-sessions';

/** `/sessions`: the sessions the signed-in user is in; one opens its live session. */
export function SessionsPage() {
  return <ParticipantSessions />;
}
