import { Link } from 'react-router';
import { routes } from '@aandenken/contract';
import { LegalPage, LegalSection, legalLinkClass } from './legal/legal-page.tsx';

/** /privacy: what Aandenken stores, why, how long, and the rights under the AVG. */
export default function PrivacyPage() {
  return (
    <LegalPage
      title="Privacyverklaring"
      eyebrow="Privacy"
      intro={
        <p>
          Een gedenkpagina bevat herinneringen die je niet opnieuw kunt maken. Daar gaan we zorgvuldig mee om.
          Hier lees je welke gegevens Aandenken bewaart, waarvoor, hoe lang, en wat je rechten zijn.
        </p>
      }
    >
      <LegalSection title="Wie is verantwoordelijk">
        <p>
          Aandenken is verantwoordelijk voor de gegevens die je via deze website deelt. Heb je een vraag over
          je gegevens of wil je een van je rechten gebruiken? Neem contact met ons op via de{' '}
          <Link to={routes.contact} className={legalLinkClass}>
            contactpagina
          </Link>
          .
        </p>
      </LegalSection>

      <LegalSection title="Welke gegevens we bewaren">
        <ul className="flex list-disc flex-col gap-2 pl-6">
          <li>
            <strong>Je account:</strong> je naam en e-mailadres, en of je dat adres hebt bevestigd. Je
            wachtwoord bewaren we niet zelf, alleen een onomkeerbare afgeleide ervan (een hash). Log je in met
            Google, dan bewaren we de koppeling met dat account en geen wachtwoord.
          </li>
          <li>
            <strong>Gedenkpagina&apos;s:</strong> wat jij of andere beheerders invullen, zoals namen, datums,
            de levensloop en de instellingen voor wie de pagina mag zien, en wie lid is met welke rol.
          </li>
          <li>
            <strong>Herinneringen, foto&apos;s en video&apos;s</strong> die je deelt, met je naam als
            afzender. Bij het opslaan halen we verborgen gegevens uit de bestanden, zoals de plaats waar een
            foto is gemaakt en het toestel waarmee dat gebeurde.
          </li>
          <li>
            <strong>Kaarsjes en bloemen:</strong> de naam en het bericht die je erbij zet.
          </li>
          <li>
            <strong>Uitnodigingen:</strong> het e-mailadres van wie een beheerder uitnodigt, zodat we de
            uitnodiging kunnen versturen.
          </li>
          <li>
            <strong>Berichten aan ons:</strong> wat je via het contactformulier of de aanmelding als partner
            stuurt.
          </li>
          <li>
            <strong>Logboek van een pagina:</strong> wie wat wanneer veranderde op een gedenkpagina, zodat de
            beheerders kunnen nagaan wat er is gebeurd.
          </li>
          <li>
            <strong>Verstuurde e-mails:</strong> elke e-mail die we sturen (zoals een bevestiging, een
            uitnodiging of een toegangscode) staat eerst in een wachtrij met ontvanger en inhoud, zodat hij
            niet verloren gaat als de verzending even mislukt.
          </li>
          <li>
            <strong>Technische logboeken:</strong> welke adressen van de website werden opgevraagd en of dat
            lukte. Geheimen zoals toegangscodes, inloggegevens en uitnodigingscodes worden daarin gemaskeerd.
            Om het raden van toegangscodes te beperken bewaren we pogingen een dag lang, met het internetadres
            alleen in versleutelde vorm.
          </li>
        </ul>
      </LegalSection>

      <LegalSection title="Waarvoor we ze gebruiken">
        <p>
          Alleen om Aandenken te laten werken: om je te laten inloggen, gedenkpagina&apos;s te tonen aan wie
          ze mag zien, e-mails te sturen die bij de dienst horen en misbruik te voorkomen. We verkopen geen
          gegevens, tonen geen advertenties en volgen je niet over andere websites.
        </p>
        <p>
          We gebruiken alleen cookies die nodig zijn: een voor je keuze tussen licht en donker, en de cookies
          die je ingelogd houden.
        </p>
      </LegalSection>

      <LegalSection title="Hoe lang we ze bewaren">
        <p>
          Je account en wat je deelt bewaren we zolang je account bestaat en de gedenkpagina blijft bestaan.
          Een inlogsessie loopt na hoogstens twee weken af. Links om je wachtwoord opnieuw in te stellen of je
          adres te bevestigen werken kort en worden daarna opgeruimd. Pogingen met een toegangscode
          verwijderen we na een dag.
        </p>
      </LegalSection>

      <LegalSection title="Je account verwijderen">
        <p>
          Je kunt je account zelf verwijderen via <strong>Mijn account</strong> in het accountmenu. Je wordt
          dan overal uitgelogd en we verwijderen je naam, je e-mailadres en je wachtwoord. Wat je op een
          gedenkpagina hebt gedeeld, blijft daar staan voor de familie, maar zonder je naam: als afzender
          staat er &lsquo;een voormalig lid&rsquo;. Ben je de enige eigenaar van een pagina, dan gaat die naar
          het volgende lid; is er geen lid meer, dan verwijderen we de pagina na 30 dagen. Wil je dat ook je
          herinneringen of foto&apos;s verdwijnen, verwijder ze dan eerst zelf of vraag het de beheerders van
          de pagina.
        </p>
        <p>
          E-mails die we je in de laatste 24 uur stuurden, bewaren we nog een dag zonder inhoud, zodat niemand
          via een nieuw account onbeperkt e-mail naar je adres kan laten sturen.
        </p>
      </LegalSection>

      <LegalSection title="Je rechten">
        <p>Volgens de Algemene verordening gegevensbescherming (AVG) heb je het recht om:</p>
        <ul className="flex list-disc flex-col gap-2 pl-6">
          <li>
            <strong>in te zien</strong> welke gegevens we over je bewaren;
          </li>
          <li>
            <strong>te laten corrigeren</strong> wat niet klopt;
          </li>
          <li>
            <strong>te laten verwijderen</strong> wat we over je bewaren;
          </li>
          <li>
            <strong>mee te nemen</strong> wat je hebt gedeeld, in een gangbaar bestandsformaat
            (overdraagbaarheid);
          </li>
          <li>
            <strong>bezwaar te maken</strong> tegen hoe we je gegevens gebruiken.
          </li>
        </ul>
        <p>
          Stuur je verzoek via de{' '}
          <Link to={routes.contact} className={legalLinkClass}>
            contactpagina
          </Link>
          ; we reageren binnen een maand. Ben je niet tevreden over hoe we met je gegevens omgaan, dan kun je
          een klacht indienen bij de Autoriteit Persoonsgegevens.
        </p>
      </LegalSection>

      <LegalSection title="Beveiliging">
        <p>
          Besloten pagina&apos;s zijn alleen te openen met een toegangscode of een uitnodiging, en herhaald
          raden van codes wordt afgeremd en geblokkeerd. Foto&apos;s van een besloten pagina zijn alleen te
          zien via links die na korte tijd verlopen.
        </p>
      </LegalSection>

      <LegalSection title="Wijzigingen">
        <p>
          Veranderen we iets aan deze verklaring, dan staat de nieuwe versie op deze pagina. Gaat het om een
          wezenlijke wijziging, dan laten we het je vooraf per e-mail weten.
        </p>
      </LegalSection>
    </LegalPage>
  );
}
