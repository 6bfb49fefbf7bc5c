import { lazy, Suspense, useEffect, useRef } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { Tabs } from 'radix-ui';
import {
  ArrowLeft,
  BookOpen,
  CalendarDays,
  FileArchive,
  Flame,
  Flag,
  History,
  Image as ImageIcon,
  KeyRound,
  Mail,
  CreditCard,
  MessageSquareHeart,
  UserRound,
  Users,
} from 'lucide-react';
import { memorialStatusLabels, memorialVisibilityLabels, roleAtLeast, routes } from '@aandenken/contract';
import { MemorialUnavailable } from '../../components/memorial/memorial-unavailable.tsx';
import { Container } from '../../components/ui/container.tsx';
import { PageSpinner, Spinner } from '../../components/ui/spinner.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { useSignInRequired } from '../../components/auth/sign-in-required.ts';
import { cn } from '../../lib/cn.ts';
import { fullName } from '../../lib/memorials/life.ts';
import { useMemorial } from '../../lib/memorials/queries.ts';
import { MemorialExportSection } from '../../components/exports/export-panel.tsx';
import { DeleteMemorialSection } from './components/delete-memorial-section.tsx';
import { AuditTab } from './tabs/audit-tab.tsx';
import { DetailsTab } from './tabs/details-tab.tsx';
import { MediaTab } from './tabs/media-tab.tsx';
import { ModerationTab } from './tabs/moderation-tab.tsx';
import { PeopleTab } from './tabs/people-tab.tsx';
import { PrivacyTab } from './tabs/privacy-tab.tsx';
import { ReportsTab } from './tabs/reports-tab.tsx';

// The editor (TipTap) is only fetched when its tab opens.
const BiographyTab = lazy(() => import('./tabs/biography-tab.tsx'));
// The plan and its payments: their own chunk.
const PlanTab = lazy(() => import('./tabs/plan-tab.tsx'));
// The funeral day's services and RSVPs (docs/funeral-day.md): their own chunk too.
const ServicesTab = lazy(() => import('./tabs/services-tab.tsx'));
// Kaarsjesmomenten (docs/funeral-day.md, 'Samen herdenken'): their own chunk.
const RemembranceTab = lazy(() => import('./tabs/remembrance-tab.tsx'));
// Future messages: their own chunk as well.
const FutureMessagesTab = lazy(() => import('./tabs/future-messages-tab.tsx'));

export const manageTabs = [
  { value: 'gegevens', label: 'Gegevens', Icon: UserRound },
  { value: 'levensverhaal', label: 'Levensverhaal', Icon: BookOpen },
  { value: 'fotos', label: 'Foto’s en video’s', Icon: ImageIcon },
  { value: 'uitvaart', label: 'Uitvaart', Icon: CalendarDays },
  { value: 'herdenken', label: 'Herdenken', Icon: Flame },
  { value: 'berichten', label: 'Berichten', Icon: Mail },
  { value: 'herinneringen', label: 'Herinneringen', Icon: MessageSquareHeart },
  { value: 'mensen', label: 'Mensen', Icon: Users },
  { value: 'privacy', label: 'Privacy en toegang', Icon: KeyRound },
  { value: 'meldingen', label: 'Meldingen', Icon: Flag, ownerOnly: true },
  { value: 'abonnement', label: 'Abonnement', Icon: CreditCard },
  { value: 'logboek', label: 'Logboek', Icon: History, ownerOnly: true },
  { value: 'bewaren', label: 'Bewaren', Icon: FileArchive, ownerOnly: true },
] as const;
export type ManageTab = (typeof manageTabs)[number]['value'];

/** /memorial/{id}/beheer[/{tab}]: everything owners and editors manage, one tab at a time. */
export default function ManagePage() {
  const { id = '', tab } = useParams();
  const auth = useSignInRequired();
  const navigate = useNavigate();
  const memorial = useMemorial(id, auth.status === 'authenticated');
  const tabList = useRef<HTMLDivElement>(null);

  // On a phone the tabs scroll sideways: keep the chosen one in sight.
  useEffect(() => {
    tabList.current
      ?.querySelector('[data-state="active"]')
      ?.scrollIntoView({ block: 'nearest', inline: 'center' });
  }, [tab, memorial.isSuccess]);

  if (auth.status !== 'authenticated' || memorial.isPending) return <PageSpinner />;
  if (memorial.isError) {
    if (memorial.error instanceof ApiError && [401, 403, 404].includes(memorial.error.status))
      return <MemorialUnavailable />;
    return (
      <Container className="py-20 text-center" role="alert">
        <h1 className="text-3xl">De pagina kon niet worden geladen</h1>
        <p className="mt-3 text-muted">{memorial.error.message}</p>
      </Container>
    );
  }

  const m = memorial.data;
  const isOwner = m.role === 'owner';
  if (!roleAtLeast(m.role, 'editor')) {
    return (
      <Container className="py-20 text-center">
        <title>Beheren · Aandenken</title>
        <h1 className="text-3xl">Je kunt deze pagina niet beheren</h1>
        <p className="mt-3 text-muted">Alleen eigenaren en redacteuren van de pagina kunnen hem aanpassen.</p>
        <Link
          to={routes.memorialBySlug(m.slug)}
          className="mt-6 inline-block font-medium text-primary underline underline-offset-4"
        >
          Naar de pagina
        </Link>
      </Container>
    );
  }

  const available = manageTabs.filter((t) => !('ownerOnly' in t) || isOwner);
  const current: ManageTab = available.some((t) => t.value === tab) ? (tab as ManageTab) : 'gegevens';

  return (
    <div className="pb-16">
      <title>{`${fullName(m)} beheren · Aandenken`}</title>
      <div className="border-b border-border bg-background-soft">
        <Container className="py-8 sm:py-10">
          <Link
            to={routes.memorialBySlug(m.slug)}
            className="inline-flex items-center gap-1.5 rounded-md text-sm font-medium text-primary hover:underline"
          >
            <ArrowLeft aria-hidden className="h-4 w-4" />
            Naar de pagina
          </Link>
          <h1 className="mt-3 text-3xl font-semibold sm:text-4xl">
            <span className="block text-base font-normal text-muted sm:text-lg">Pagina beheren</span>
            {fullName(m)}
          </h1>
          <p className="mt-3 flex flex-wrap gap-2 text-xs">
            <span
              className={cn(
                'rounded-full px-2.5 py-1 font-medium',
                m.status === 'active' ? 'bg-success-soft text-success' : 'bg-secondary',
              )}
            >
              {memorialStatusLabels[m.status]}
            </span>
            <span className="rounded-full bg-secondary px-2.5 py-1 font-medium">
              {memorialVisibilityLabels[m.visibility]}
            </span>
            <span className="rounded-full bg-secondary px-2.5 py-1 font-medium">
              Jij bent {isOwner ? 'eigenaar' : 'redacteur'}
            </span>
          </p>
        </Container>
      </div>

      <Tabs.Root
        value={current}
        onValueChange={(v) => void navigate(routes.memorialManage(m.id, v), { replace: true })}
        activationMode="manual"
      >
        <div className="sticky top-16 z-20 border-b border-border bg-background/95 backdrop-blur">
          <Container>
            <Tabs.List
              aria-label="Onderdelen van de pagina"
              className="-mx-2 flex gap-1 overflow-x-auto py-2 [scrollbar-width:none]"
            >
              {available.map(({ value, label, Icon }) => (
                <Tabs.Trigger
                  key={value}
                  value={value}
                  className="inline-flex shrink-0 cursor-pointer items-center gap-2 rounded-full px-4 py-2 text-sm font-medium whitespace-nowrap text-muted transition-colors hover:bg-secondary hover:text-foreground data-[state=active]:bg-primary data-[state=active]:text-primary-foreground"
                >
                  <Icon aria-hidden className="h-4 w-4" />
                  {label}
                </Tabs.Trigger>
              ))}
            </Tabs.List>
          </Container>
        </div>
        <Container className="pt-8 sm:pt-10">
          <Tabs.Content value="gegevens" className="focus:outline-none">
            <DetailsTab memorial={m} />
          </Tabs.Content>
          <Tabs.Content value="levensverhaal" className="focus:outline-none">
            <Suspense fallback={<Spinner label="Editor laden" className="text-muted" />}>
              <BiographyTab memorial={m} />
            </Suspense>
          </Tabs.Content>
          <Tabs.Content value="fotos" className="focus:outline-none">
            <MediaTab memorial={m} />
          </Tabs.Content>
          <Tabs.Content value="uitvaart" className="focus:outline-none">
            <Suspense fallback={<Spinner label="Laden" className="text-muted" />}>
              <ServicesTab memorial={m} />
            </Suspense>
          </Tabs.Content>
          <Tabs.Content value="herdenken" className="focus:outline-none">
            <Suspense fallback={<Spinner label="Laden" className="text-muted" />}>
              <RemembranceTab memorial={m} />
            </Suspense>
          </Tabs.Content>
          <Tabs.Content value="berichten" className="focus:outline-none">
            <Suspense fallback={<Spinner label="Laden" className="text-muted" />}>
              <FutureMessagesTab memorial={m} />
            </Suspense>
          </Tabs.Content>
          <Tabs.Content value="herinneringen" className="focus:outline-none">
            <ModerationTab memorial={m} />
          </Tabs.Content>
          <Tabs.Content value="mensen" className="focus:outline-none">
            <PeopleTab memorial={m} />
          </Tabs.Content>
          <Tabs.Content value="privacy" className="focus:outline-none">
            <PrivacyTab memorial={m} />
          </Tabs.Content>
          <Tabs.Content value="abonnement" className="focus:outline-none">
            <Suspense fallback={<Spinner label="Abonnement laden" className="text-muted" />}>
              <PlanTab memorialId={m.id} />
            </Suspense>
          </Tabs.Content>
          {isOwner && (
            <Tabs.Content value="meldingen" className="focus:outline-none">
              <ReportsTab memorial={m} />
            </Tabs.Content>
          )}
          {isOwner && (
            <Tabs.Content value="logboek" className="focus:outline-none">
              <AuditTab memorial={m} />
            </Tabs.Content>
          )}
          {isOwner && (
            <Tabs.Content value="bewaren" className="focus:outline-none">
              <MemorialExportSection memorialId={m.id} />
              <DeleteMemorialSection memorialId={m.id} name={fullName(m)} />
            </Tabs.Content>
          )}
        </Container>
      </Tabs.Root>
    </div>
  );
}
