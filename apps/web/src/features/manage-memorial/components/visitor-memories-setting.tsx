import { MessageSquareHeart } from 'lucide-react';
import { routes, type Memorial } from '@aandenken/contract';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { toast } from '../../../lib/toast.ts';
import { useUpdateMemorial } from '../api/details.ts';
import { errorText, Section } from './section.tsx';

/**
 * Whether visitors of a public page may leave a memory (off until the family turns it on,
 * docs/decisions/025-visitor-memories.md). Owners and editors decide: they are the ones who approve them.
 */
export function VisitorMemoriesSetting({ memorial }: { memorial: Memorial }) {
  const update = useUpdateMemorial(memorial.id);
  const on = memorial.visitorMemories === true;
  const set = async (visitorMemories: boolean) => {
    try {
      await update.mutateAsync({ visitorMemories });
      toast.success(
        visitorMemories
          ? 'Bezoekers kunnen nu een herinnering achterlaten'
          : 'Bezoekers kunnen geen herinnering meer achterlaten',
        visitorMemories ? 'Je vindt ze onder Herinneringen, om goed te keuren.' : undefined,
      );
    } catch (e) {
      toast.error('Dit kon niet worden gewijzigd', errorText(e));
      throw e;
    }
  };
  return (
    <Section
      title="Herinneringen van bezoekers"
      description="Iedereen met de link kan een kaarsje aansteken. Mogen bezoekers zonder account ook een herinnering achterlaten? Zij bevestigen eerst hun e-mailadres; jij keurt elke herinnering goed voordat ze op de pagina staat."
    >
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <p className="flex gap-3 text-sm leading-relaxed" data-testid="visitor-memories-state">
          <MessageSquareHeart aria-hidden className="mt-0.5 h-5 w-5 shrink-0 text-primary" />
          {on ? (
            <span>
              Aan: bezoekers zien ‘Deel een herinnering’. Wat ze schrijven, wacht onder{' '}
              <Link className="underline" to={routes.memorialManage(memorial.id, 'herinneringen')}>
                Herinneringen
              </Link>{' '}
              op je goedkeuring.
            </span>
          ) : (
            'Uit: bezoekers kunnen alleen een kaarsje aansteken of een bloem leggen.'
          )}
        </p>
        <ConfirmDialog
          trigger={
            <Button variant={on ? 'secondary' : 'outline'} disabled={update.isPending}>
              {on ? 'Uitzetten' : 'Aanzetten'}
            </Button>
          }
          title={on ? 'Herinneringen van bezoekers uitzetten?' : 'Herinneringen van bezoekers aanzetten?'}
          description={
            on
              ? 'Bezoekers zien het formulier dan niet meer. Herinneringen die al wachten, blijven in je wachtrij.'
              : 'Bezoekers zien dan ‘Deel een herinnering’. Niets komt op de pagina zonder dat jij of een redacteur het goedkeurt. Het e-mailadres van een bezoeker is nooit zichtbaar.'
          }
          confirmLabel={on ? 'Uitzetten' : 'Aanzetten'}
          onConfirm={() => set(!on)}
        />
      </div>
    </Section>
  );
}
