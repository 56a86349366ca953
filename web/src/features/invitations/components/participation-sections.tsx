import { EVERYONE } from '@uis/proto/browser';
import type { Scope } from '@uis/proto';
import { JoinLinkSection } from './join-link-section';
import { SessionPeople } from './session-people';
import '../participation.css';

/** The editor's participation sections: who was invited or joined, and the join link. */
export function ParticipationSections({ sessionId, scope }: { sessionId: string; scope: Scope }) {
  return (
    <>
      <SessionPeople sessionId={sessionId} everyone={scope === EVERYONE} />
      <JoinLinkSection sessionId={sessionId} />
    </>
  );
}
