import { memberRoleLabels, type HandoverMember, type HandoverMembers } from '@aandenken/contract';
import { Spinner } from '../../components/ui/spinner.tsx';

/** Whether a person stays: the family's tick, else the default (relatives stay, the company's own users go). */
export const keeps = (m: HandoverMember, choice: Record<string, boolean>) =>
  choice[m.memberId] ?? !m.companyUser;

const nameOf = (m: HandoverMember) => m.name || m.email || 'Iemand zonder naam';

/**
 * When the company may not keep helping: whom it invited, each to keep or remove, what happens to its
 * open invitations, and the choice of a new access code.
 */
export function CompanyPeople({
  companyName,
  members,
  loading,
  notice,
  choice,
  onChoice,
  newCode,
  onNewCode,
}: {
  companyName: string;
  members: HandoverMembers | undefined;
  loading: boolean;
  /** Said instead of the list when it could not be loaded. */
  notice: string | null;
  choice: Record<string, boolean>;
  onChoice: (memberId: string, keep: boolean) => void;
  newCode: boolean;
  onNewCode: (on: boolean) => void;
}) {
  const open = members?.openInvitations ?? 0;
  return (
    <>
      <fieldset className="flex flex-col gap-3" aria-describedby="company-people-help">
        <legend className="font-semibold">Wie het bedrijf heeft uitgenodigd</legend>
        <p id="company-people-help" className="text-sm text-muted">
          Aangevinkt blijft iemand bij de pagina. Wie je uitvinkt, kan de pagina daarna niet meer bekijken. Je
          kunt later altijd weer mensen uitnodigen.
        </p>
        {loading ? (
          <p className="flex items-center gap-2 text-sm text-muted">
            <Spinner className="[&>span]:h-4 [&>span]:w-4" />
            Even kijken wie er is uitgenodigd…
          </p>
        ) : notice ? (
          <p className="text-sm text-muted">{notice}</p>
        ) : members && members.items.length > 0 ? (
          <ul className="flex flex-col gap-3">
            {members.items.map((m) => (
              <li key={m.memberId}>
                <label className="flex gap-3">
                  <input
                    type="checkbox"
                    className="mt-1 h-5 w-5 shrink-0 accent-[var(--primary)]"
                    checked={keeps(m, choice)}
                    onChange={(e) => onChoice(m.memberId, e.target.checked)}
                  />
                  <span className="min-w-0">
                    <span className="break-words">{nameOf(m)}</span>
                    <span className="block text-sm break-words text-muted">
                      {memberRoleLabels[m.role]}
                      {m.companyUser
                        ? ` · medewerker van ${companyName}`
                        : m.invitedByName
                          ? ` · uitgenodigd door ${m.invitedByName}`
                          : ''}
                      {m.name && m.email ? ` · ${m.email}` : ''}
                    </span>
                  </span>
                </label>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-muted">Er doet nog niemand mee die {companyName} heeft uitgenodigd.</p>
        )}
        {open > 0 && (
          <p className="text-sm text-muted">
            {open === 1
              ? 'Eén uitnodiging is nog niet aangenomen. Die vervalt als je de pagina overneemt.'
              : `${open} uitnodigingen zijn nog niet aangenomen. Die vervallen als je de pagina overneemt.`}
          </p>
        )}
      </fieldset>
      <label className="flex gap-3">
        <input
          type="checkbox"
          className="mt-1 h-5 w-5 shrink-0 accent-[var(--primary)]"
          checked={newCode}
          onChange={(e) => onNewCode(e.target.checked)}
        />
        <span>
          Nieuwe toegangscode maken (aanbevolen)
          <span className="block text-sm text-muted">
            De code die {companyName} kent, werkt daarna niet meer. Je ziet de nieuwe code meteen na het
            overnemen.
          </span>
        </span>
      </label>
    </>
  );
}
