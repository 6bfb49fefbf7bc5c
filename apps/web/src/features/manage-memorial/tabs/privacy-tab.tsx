import { useState } from 'react';
import { Link } from 'react-router';
import { Check, Copy, Globe, Lock, MailCheck, Printer, RefreshCw, Search, Send } from 'lucide-react';
import {
  accessCodeMailSchema,
  formatAccessCode,
  routes,
  type Memorial,
  type MemorialVisibility,
} from '@aandenken/contract';
import { Form, FormError, TextField, SubmitButton } from '../../../components/form/form.tsx';
import { Button, buttonClass } from '../../../components/ui/button.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { cn } from '../../../lib/cn.ts';
import { toast } from '../../../lib/toast.ts';
import { useUpdateMemorial } from '../api/details.ts';
import { useMailCode, useRegenerateCode } from '../api/privacy.ts';
import { errorText, Section } from '../components/section.tsx';
import { VisitorMemoriesSetting } from '../components/visitor-memories-setting.tsx';

const visibilityOptions: { value: MemorialVisibility; label: string; text: string; Icon: typeof Lock }[] = [
  {
    value: 'private',
    label: 'Besloten',
    text: 'Alleen leden en mensen met de toegangscode zien de pagina.',
    Icon: Lock,
  },
  {
    value: 'public',
    label: 'Openbaar',
    text: 'Iedereen met de link kan de pagina bekijken en een kaarsje aansteken.',
    Icon: Globe,
  },
];

export function PrivacyTab({ memorial }: { memorial: Memorial }) {
  const update = useUpdateMemorial(memorial.id);
  const regenerate = useRegenerateCode(memorial.id);
  const mail = useMailCode(memorial.id);
  const [copied, setCopied] = useState(false);
  const code = memorial.accessCode ?? '';

  const isOwner = memorial.role === 'owner';
  const setInviteOnly = async (inviteOnly: boolean) => {
    try {
      await update.mutateAsync({ inviteOnly });
      toast.success(
        inviteOnly ? 'De pagina is nu alleen op uitnodiging' : 'De toegangscode werkt weer',
        inviteOnly ? 'Geen enkele toegangscode opent de pagina nog.' : undefined,
      );
    } catch (e) {
      toast.error('Dit kon niet worden gewijzigd', errorText(e));
      throw e;
    }
  };

  const setSearchEngines = async (searchEngines: boolean) => {
    try {
      await update.mutateAsync({ searchEngines });
      toast.success(
        searchEngines ? 'De pagina is nu vindbaar via zoekmachines' : 'De pagina is niet meer vindbaar',
        searchEngines
          ? 'Zoekmachines nemen haar in de komende dagen op.'
          : 'Zoekmachines halen haar in de komende weken weg.',
      );
    } catch (e) {
      toast.error('Dit kon niet worden gewijzigd', errorText(e));
      throw e;
    }
  };

  const setVisibility = async (visibility: MemorialVisibility) => {
    try {
      await update.mutateAsync({ visibility });
      toast.success(visibility === 'private' ? 'De pagina is nu besloten' : 'De pagina is nu openbaar');
    } catch (e) {
      toast.error('De zichtbaarheid kon niet worden gewijzigd', errorText(e));
      throw e;
    }
  };

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(code);
      setCopied(true);
      setTimeout(() => setCopied(false), 2500);
    } catch {
      toast.error('Kopiëren lukte niet', 'Selecteer de code en kopieer hem zelf.');
    }
  };

  return (
    <div className="flex flex-col gap-8">
      <Section title="Wie mag de pagina zien?" description="Je kunt dit altijd weer veranderen.">
        <div role="radiogroup" aria-label="Zichtbaarheid" className="grid gap-3 sm:grid-cols-2">
          {visibilityOptions.map(({ value, label, text, Icon }) => {
            const selected = memorial.visibility === value;
            const card = (
              <span
                className={cn(
                  'flex h-full gap-4 rounded-2xl border p-5 text-left transition-colors',
                  selected ? 'border-primary bg-success-soft' : 'border-border hover:bg-secondary',
                )}
              >
                <Icon
                  aria-hidden
                  className={cn('mt-0.5 h-5 w-5 shrink-0', selected ? 'text-primary' : 'text-muted')}
                />
                <span>
                  <span className="flex items-center gap-2 font-semibold">
                    {label}
                    {selected && <Check aria-hidden className="h-4 w-4 text-primary" />}
                  </span>
                  <span className="mt-1 block text-sm text-muted">{text}</span>
                </span>
              </span>
            );
            if (selected) {
              return (
                <button key={value} type="button" role="radio" aria-checked="true" className="rounded-2xl">
                  {card}
                </button>
              );
            }
            return (
              <ConfirmDialog
                key={value}
                trigger={
                  <button
                    type="button"
                    role="radio"
                    aria-checked="false"
                    // The dialog trigger's aria-expanded is not allowed on a radio; aria-haspopup says enough.
                    aria-expanded={undefined}
                    disabled={update.isPending}
                    className="rounded-2xl"
                  >
                    {card}
                  </button>
                }
                title={value === 'public' ? 'Pagina openbaar maken?' : 'Pagina besloten maken?'}
                description={
                  value === 'public'
                    ? 'Iedereen met de link kan de pagina dan zien, ook zonder toegangscode. Herinneringen die alleen voor leden zijn, blijven dat.'
                    : 'Alleen leden en mensen met de toegangscode kunnen de pagina dan nog zien.'
                }
                confirmLabel={value === 'public' ? 'Openbaar maken' : 'Besloten maken'}
                onConfirm={() => setVisibility(value)}
              />
            );
          })}
        </div>
      </Section>

      {memorial.visibility === 'public' && (
        <Section
          title="Vindbaar via zoekmachines"
          description="Een openbare pagina opent voor iedereen met de link. Of Google en andere zoekmachines haar ook tonen als iemand op de naam zoekt, kies je zelf."
        >
          <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
            <p className="flex gap-3 text-sm leading-relaxed" data-testid="search-engines-state">
              <Search aria-hidden className="mt-0.5 h-5 w-5 shrink-0 text-primary" />
              {memorial.searchEngines
                ? 'Aan: zoekmachines mogen de pagina opnemen; wie op de naam zoekt, kan haar vinden.'
                : 'Uit: de pagina is alleen te vinden voor wie de link heeft.'}
            </p>
            {isOwner ? (
              <ConfirmDialog
                trigger={
                  <Button
                    variant={memorial.searchEngines ? 'secondary' : 'outline'}
                    disabled={update.isPending}
                  >
                    {memorial.searchEngines ? 'Niet meer vindbaar maken' : 'Vindbaar maken'}
                  </Button>
                }
                title={
                  memorial.searchEngines ? 'Niet meer vindbaar maken?' : 'Vindbaar maken via zoekmachines?'
                }
                description={
                  memorial.searchEngines
                    ? 'Zoekmachines nemen de pagina dan niet meer op. Wat ze al hadden, verdwijnt in de komende weken. De link blijft werken.'
                    : 'Zoekmachines zoals Google mogen de pagina dan opnemen: de naam, de jaren, de foto en wat er openbaar op staat. Je kunt dit later weer uitzetten.'
                }
                confirmLabel={memorial.searchEngines ? 'Niet meer vindbaar' : 'Vindbaar maken'}
                onConfirm={() => setSearchEngines(!memorial.searchEngines)}
              />
            ) : (
              <p className="text-sm text-muted">Alleen de eigenaar kan dit wijzigen.</p>
            )}
          </div>
        </Section>
      )}

      {memorial.visibility === 'public' && !memorial.inviteOnly && (
        <VisitorMemoriesSetting memorial={memorial} />
      )}

      {(memorial.visibility === 'private' || memorial.inviteOnly) && (
        <Section
          title="Alleen op uitnodiging"
          description="Zonder toegangscode: alleen leden en mensen die je uitnodigt (bij ‘Mensen’) openen de pagina. Links uit uitnodigingen blijven werken."
        >
          <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
            <p className="flex gap-3 text-sm leading-relaxed" data-testid="invite-only-state">
              <MailCheck aria-hidden className="mt-0.5 h-5 w-5 shrink-0 text-primary" />
              {memorial.inviteOnly
                ? 'Deze pagina is alleen op uitnodiging. Er is geen toegangscode: ook codes op kaartjes en in eerder gestuurde mails werken niet.'
                : 'Uit: wie de toegangscode heeft, kan de pagina openen.'}
            </p>
            {isOwner ? (
              <ConfirmDialog
                trigger={
                  <Button variant={memorial.inviteOnly ? 'secondary' : 'outline'} disabled={update.isPending}>
                    {memorial.inviteOnly ? 'Toegangscode weer aanzetten' : 'Alleen op uitnodiging zetten'}
                  </Button>
                }
                title={memorial.inviteOnly ? 'Toegangscode weer aanzetten?' : 'Alleen op uitnodiging?'}
                description={
                  memorial.inviteOnly
                    ? 'De toegangscode van de pagina werkt dan weer: iedereen die hem heeft, kan de pagina openen.'
                    : 'Geen enkele toegangscode opent de pagina dan nog, ook niet de code op kaartjes of in eerder gestuurde mails. Wie de pagina nu met een code bekijkt, kan dat meteen niet meer. Leden en uitnodigingen blijven werken.'
                }
                confirmLabel={memorial.inviteOnly ? 'Code aanzetten' : 'Alleen op uitnodiging'}
                onConfirm={() => setInviteOnly(!memorial.inviteOnly)}
              />
            ) : (
              <p className="text-sm text-muted">Alleen de eigenaar kan dit wijzigen.</p>
            )}
          </div>
        </Section>
      )}

      {!memorial.inviteOnly && (
        <>
          <Section
            title="Toegangscode"
            description="Met deze code van 8 cijfers openen bezoekers de besloten pagina via ‘Bezoek besloten pagina’. Deel hem alleen met mensen die de pagina mogen zien."
          >
            <div className="flex flex-col gap-5 sm:flex-row sm:items-center">
              <p className="rounded-2xl border border-border bg-background-soft px-6 py-4 text-center font-mono text-3xl font-semibold tracking-[0.2em] tabular-nums select-all sm:text-4xl">
                <span className="sr-only">Toegangscode: </span>
                <span data-testid="access-code">{formatAccessCode(code)}</span>
              </p>
              <div className="flex flex-wrap gap-2">
                <Button variant="secondary" onClick={() => void copy()}>
                  {copied ? (
                    <Check aria-hidden className="h-4 w-4" />
                  ) : (
                    <Copy aria-hidden className="h-4 w-4" />
                  )}
                  {copied ? 'Gekopieerd' : 'Kopiëren'}
                </Button>
                <Link to={routes.memorialCard(memorial.id)} className={buttonClass('outline', 'md')}>
                  <Printer aria-hidden className="h-4 w-4" />
                  Kaartje afdrukken
                </Link>
                <ConfirmDialog
                  trigger={
                    <Button variant="ghost">
                      <RefreshCw aria-hidden className="h-4 w-4" />
                      Nieuwe code maken
                    </Button>
                  }
                  title="Nieuwe toegangscode maken?"
                  description="De oude code werkt dan niet meer. Wie de pagina met de oude code bekeek, moet de nieuwe code invullen. Kaartjes met de oude code kloppen niet meer."
                  confirmLabel="Nieuwe code maken"
                  destructive
                  onConfirm={async () => {
                    try {
                      await regenerate.mutateAsync();
                      toast.success('Er is een nieuwe toegangscode gemaakt', 'De oude code werkt niet meer.');
                    } catch (e) {
                      toast.error('Een nieuwe code maken is niet gelukt', errorText(e));
                      throw e;
                    }
                  }}
                />
              </div>
            </div>
            <p role="status" className="sr-only">
              {copied ? 'De toegangscode is gekopieerd' : ''}
            </p>
          </Section>

          <Section
            title="Code mailen"
            description="Stuur iemand de toegangscode met een persoonlijke link die de pagina één keer direct opent (14 dagen geldig)."
          >
            {memorial.status !== 'active' ? (
              <p className="text-sm text-muted">Dit kan zodra de pagina is gepubliceerd.</p>
            ) : (
              <Form
                schema={accessCodeMailSchema}
                defaultValues={{ email: '', name: '' }}
                aria-label="Toegangscode mailen"
                className="grid gap-5 sm:grid-cols-2"
                onSubmit={async (values, form) => {
                  await mail.mutateAsync(values);
                  form.reset({ email: '', name: '' });
                  toast.success('De toegangscode is gemaild', `Naar ${values.email}`);
                }}
              >
                {() => (
                  <>
                    <TextField name="email" label="E-mailadres" type="email" required autoComplete="off" />
                    <TextField name="name" label="Naam (niet verplicht)" autoComplete="off" />
                    <FormError className="sm:col-span-2" />
                    <div className="sm:col-span-2">
                      <SubmitButton variant="secondary" icon={<Send aria-hidden className="h-4 w-4" />}>
                        Code mailen
                      </SubmitButton>
                    </div>
                  </>
                )}
              </Form>
            )}
          </Section>
        </>
      )}
    </div>
  );
}
