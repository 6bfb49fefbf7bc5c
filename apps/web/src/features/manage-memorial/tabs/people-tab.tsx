import type { MemberRole, Memorial } from '@aandenken/contract';
import { InviteForm } from '../components/people/invite-form.tsx';
import { MembersList } from '../components/people/members-list.tsx';
import { OpenInvites } from '../components/people/open-invites.tsx';
import { SuccessorSection } from '../components/people/successor-section.tsx';
import { Section } from '../components/section.tsx';
import { CareSection } from '../components/care-section.tsx';

/** People: invite by e-mail with a role, the open invitations, the members with their roles, and (owners) the successor. */
export function PeopleTab({ memorial }: { memorial: Memorial }) {
  const actor = memorial.role as MemberRole;
  return (
    <div className="flex flex-col gap-8">
      <Section
        title="Iemand uitnodigen"
        description="De uitnodiging komt per e-mail met een persoonlijke link. Wie die opent, logt in of maakt een account aan en wordt lid met de gekozen rol."
      >
        <InviteForm memorial={memorial} actor={actor} />
      </Section>
      <OpenInvites memorial={memorial} />
      <MembersList memorial={memorial} actor={actor} />
      <CareSection memorial={memorial} />
      {actor === 'owner' && <SuccessorSection memorial={memorial} />}
    </div>
  );
}
