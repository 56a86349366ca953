import { useParams } from 'react-router-dom';
import { SessionEditor } from '../features/session-editor/components/session-editor';
import { stripLeadingColon } from '../routes';

/** `/editSession/:sessionId`: the path carries the id after a colon, which is stripped. */
export function EditSessionPage() {
  const { sessionId = '' } = useParams();
  const id = stripLeadingColon(sessionId);
  return <SessionEditor key={id} sessionId={id} />;
}
