import { HeartHandshake } from 'lucide-react';
import type { Memorial } from '@aandenken/contract';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { toast } from '../../../lib/toast.ts';
import { useMemorialCare, useUpdateMemorialCare } from '../api/care.ts';
import { errorText, Section } from './section.tsx';

/**
 * A page a funeral company made for the family: the owners decide whether the company keeps managing it
 * (the partner role) and whether "Verzorgd door" is shown; they can change both at any time. Nothing for
 * a page nobody made for a family.
 */
export function CareSection({ memorial }: { memorial: Memorial }) {
  const care = useMemorialCare(memorial.id);
  const update = useUpdateMemorialCare(memorial.id);
  if (care.data === null) return null;
  const isOwner = memorial.role === 'owner';

  const change = async (patch: { partnerRoleAllowed?: boolean; shownPublicly?: boolean }, done: string) => {
    try {
      await update.mutateAsync(patch);
      toast.success(done);
    } catch (e) {
      toast.error('Dit kon niet worden gewijzigd', errorText(e));
    }
  };

  return (
    <QueryState
      query={care}
      // Most pages were not made by a company: nothing shows (no placeholder) until the answer says so.
      skeleton={null}
      error="De gegevens van de uitvaartondernemer konden niet worden geladen."
    >
      {(c) =>
        c && (
          <Section
            title="Uitvaartondernemer"
            description={`${c.companyName} heeft deze pagina gemaakt.`}
            actions={<HeartHandshake aria-hidden className="h-6 w-6 text-accent" />}
          >
            {c.state === 'waiting' ? (
              <p className="text-sm">
                De familie heeft de pagina nog niet overgenomen. Tot dan beheert {c.companyName} de pagina. De
                uitnodiging aan de familie kan opnieuw worden verstuurd vanuit het partnerportaal.
              </p>
            ) : isOwner ? (
              <div className="flex flex-col gap-4">
                <label className="flex gap-3">
                  <input
                    type="checkbox"
                    className="mt-1 h-5 w-5 shrink-0 accent-[var(--primary)]"
                    checked={c.partnerRoleAllowed}
                    disabled={update.isPending}
                    onChange={(e) =>
                      void change(
                        { partnerRoleAllowed: e.target.checked },
                        e.target.checked
                          ? `${c.companyName} mag de pagina weer meebeheren`
                          : `${c.companyName} beheert de pagina niet meer mee`,
                      )
                    }
                  />
                  <span>
                    {c.companyName} mag de pagina meebeheren
                    <span className="block text-sm text-muted">
                      Zonder deze toestemming kunnen zij de pagina niet meer beheren of de besloten inhoud
                      zien.
                    </span>
                  </span>
                </label>
                <label className="flex gap-3">
                  <input
                    type="checkbox"
                    className="mt-1 h-5 w-5 shrink-0 accent-[var(--primary)]"
                    checked={c.shownPublicly}
                    disabled={update.isPending}
                    onChange={(e) =>
                      void change(
                        { shownPublicly: e.target.checked },
                        e.target.checked
                          ? '‘Verzorgd door’ staat op de pagina'
                          : '‘Verzorgd door’ is weggehaald',
                      )
                    }
                  />
                  <span>
                    Toon ‘Verzorgd door {c.companyName}’ op de pagina
                    <span className="block text-sm text-muted">
                      Een openbare pagina staat dan ook op de pagina van de uitvaartondernemer.
                    </span>
                  </span>
                </label>
              </div>
            ) : (
              <p className="text-sm">
                {c.partnerRoleAllowed
                  ? `De familie heeft ${c.companyName} toestemming gegeven de pagina mee te beheren.`
                  : `${c.companyName} beheert de pagina niet mee.`}{' '}
                Alleen een eigenaar kan dit wijzigen.
              </p>
            )}
          </Section>
        )
      }
    </QueryState>
  );
}
