import { Link } from 'react-router';
import { routes } from '@aandenken/contract';
import { LegalPage, LegalSection, legalLinkClass } from './legal/legal-page.tsx';

/** /voorwaarden: the general terms of using Aandenken. */
export default function TermsPage() {
  return (
    <LegalPage
      title="Algemene voorwaarden"
      eyebrow="Voorwaarden"
      intro={
        <p>
          Deze voorwaarden gelden voor iedereen die Aandenken gebruikt: wie een gedenkpagina maakt of beheert,
          wie een herinnering deelt of een kaarsje aansteekt, en wie een pagina bezoekt.
        </p>
      }
    >
      <LegalSection title="Wat Aandenken is">
        <p>
          Aandenken is een online plek waar families een gedenkpagina maken voor wie hen ontvallen is, en waar
          anderen herinneringen, foto&apos;s, video&apos;s, kaarsjes en bloemen kunnen achterlaten. Wie de
          pagina beheert, bepaalt of die openbaar is of alleen te openen met een toegangscode.
        </p>
      </LegalSection>

      <LegalSection title="Je account">
        <p>
          Voor het maken en beheren van een gedenkpagina heb je een account nodig. Vul je eigen naam en een
          e-mailadres in dat van jou is, en houd je wachtwoord voor jezelf. Wat er met je account gebeurt,
          valt onder jouw verantwoordelijkheid.
        </p>
      </LegalSection>

      <LegalSection title="Wat je deelt">
        <p>
          Wat je op Aandenken plaatst, blijft van jou. Je geeft ons toestemming om het op te slaan en te tonen
          aan wie de gedenkpagina mag zien, zolang het daar staat. Deel alleen wat je mag delen: eigen
          foto&apos;s en teksten, of die van anderen met hun toestemming.
        </p>
        <p>
          Een gedenkpagina is een plek van respect. Plaats niets wat kwetsend, onwaar, onwettig of reclame is.
          De beheerders van een pagina kunnen herinneringen en foto&apos;s beoordelen, verbergen of
          verwijderen.
        </p>
      </LegalSection>

      <LegalSection title="Beheren van een gedenkpagina">
        <p>
          Wie een gedenkpagina maakt, is er eigenaar van en kan anderen uitnodigen om mee te beheren. Als
          eigenaar zorg je ervoor dat de pagina past bij de wensen van de naasten. Deel een toegangscode
          zorgvuldig: iedereen met de code kan de besloten pagina openen.
        </p>
      </LegalSection>

      <LegalSection title="Kosten">
        <p>
          Wat een gedenkpagina kost, staat op de pagina met{' '}
          <Link to={routes.pricing} className={legalLinkClass}>
            prijzen
          </Link>
          .
        </p>
      </LegalSection>

      <LegalSection title="Stoppen">
        <p>
          Je kunt op elk moment stoppen met Aandenken en je account laten verwijderen. Hoe we dan met je
          gegevens omgaan, lees je in onze{' '}
          <Link to={routes.privacy} className={legalLinkClass}>
            privacyverklaring
          </Link>
          . Gaat iemand in tegen deze voorwaarden, dan kunnen we inhoud verbergen of verwijderen en in
          ernstige gevallen een account afsluiten.
        </p>
      </LegalSection>

      <LegalSection title="Beschikbaarheid">
        <p>
          We doen ons best om Aandenken altijd bereikbaar te houden en niets verloren te laten gaan. Soms is
          onderhoud nodig; dan houden we de onderbreking zo kort mogelijk.
        </p>
      </LegalSection>

      <LegalSection title="Wijzigingen en vragen">
        <p>
          Veranderen we deze voorwaarden, dan staat de nieuwe versie op deze pagina en laten we wezenlijke
          wijzigingen vooraf per e-mail weten. Vragen? Neem contact met ons op via de{' '}
          <Link to={routes.contact} className={legalLinkClass}>
            contactpagina
          </Link>
          .
        </p>
      </LegalSection>
    </LegalPage>
  );
}
