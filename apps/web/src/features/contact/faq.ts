/** Questions people really ask about Aandenken, answered in plain Dutch. */
export const faq: readonly { question: string; answer: string }[] = [
  {
    question: 'Wat is een gedenkpagina?',
    answer:
      'Een gedenkpagina is een persoonlijke online plek voor iemand die is overleden. Familie en vrienden delen er herinneringen, foto’s en verhalen, steken een kaarsje aan of laten bloemen achter. De pagina blijft bestaan, zodat je er ook later nog naar terug kunt.',
  },
  {
    question: 'Hoe werkt de toegangscode van een besloten pagina?',
    answer:
      'Een besloten pagina is alleen te zien voor mensen die zijn uitgenodigd. Zij krijgen een code van 8 cijfers per e-mail of op een kaartje, bijvoorbeeld bij de rouwkaart. Met die code open je de pagina via ‘Bezoek besloten pagina’, zonder dat je een account nodig hebt.',
  },
  {
    question: 'Wie kan de herinneringen op een pagina zien?',
    answer:
      'Dat bepaalt de beheerder van de pagina. Een pagina kan besloten zijn (alleen met code of uitnodiging) en de beheerder beslist welke herinneringen zichtbaar worden. We verkopen geen gegevens, tonen geen advertenties en bewaren alles op servers in Europa.',
  },
  {
    question: 'Wat kost een gedenkpagina?',
    answer:
      'Je begint gratis en ziet eerst hoe de pagina eruitziet. Daarna kies je Basis voor € 50 per jaar of Premium voor € 199 als eenmalige betaling. Bekijk alle verschillen op de pagina Prijzen.',
  },
  {
    question: 'Ik ben uitvaartondernemer. Hoe word ik partner?',
    answer:
      'Vraag het partnerschap aan via de pagina voor bedrijven. Ons team beoordeelt je aanvraag en neemt binnen 24-48 uur contact op. Na goedkeuring richt je je profiel, prijzen en werkgebied in en kun je gedenkpagina’s voor families aanmaken.',
  },
  {
    question: 'Kan ik een pagina later aanpassen of verwijderen?',
    answer:
      'Ja. Als beheerder pas je teksten, foto’s en instellingen aan wanneer je wilt. Wil je een pagina helemaal verwijderen, neem dan contact met ons op; we verwijderen de pagina en alle bijbehorende foto’s en herinneringen definitief.',
  },
];
