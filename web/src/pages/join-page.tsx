import { useLocation, useParams } from 'react-router-dom';
import { JoinSession } from '../features/invitations/components/join-session';

/** `/join/:token`: a session's join link; its query (a recruitment panel's ids) goes with it. */
export function JoinPage() {
  const { token = '' } = useParams();
  const { search } = useLocation();
  return <JoinSession key={token} token={token} query={search} />;
}
