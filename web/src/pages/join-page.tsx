import { useState } from 'react';
import { useLocation, useParams } from 'react-router-dom';
import { JoinLanding } from '../features/invitations/components/join-landing';
import { JoinSession } from '../features/invitations/components/join-session';
import { useAuth } from '../signed-in/auth-context';

/**
 * `/join/:token`: a session's join link; its query (a recruitment panel's ids) goes with it. Signed
 * out, the landing page lets a participant start without an e-mail; signed in, they join (at once
 * when they just started on the landing page, which asked them already).
 */
export function JoinPage() {
  const { token = '' } = useParams();
  const { search } = useLocation();
  const { state } = useAuth();
  const [entered, setEntered] = useState(false);
  if (state.status === 'checking') return null;
  if (state.status === 'signedOut')
    return <JoinLanding key={token} token={token} query={search} onEntered={() => setEntered(true)} />;
  return <JoinSession key={token} token={token} query={search} confirmed={entered} />;
}
