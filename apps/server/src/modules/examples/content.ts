import { exampleMemorialIds, type ExampleMemorialKey } from '@aandenken/contract';

/**
 * The three example memorials (the landing page's sample cards). Names, people and stories are
 * invented; the photos are the SVG illustrations in ./illustrations, rendered by sharp at seed time.
 */
export interface ExamplePhoto {
  /** File name in ./illustrations, without `.svg`. */
  file: string;
  caption: string;
  /** Part of the illustration (fractions of width and height), for a detail used with a memory. */
  crop?: { left: number; top: number; width: number; height: number };
}

export interface ExampleMemory {
  yearLabel: string;
  author: string;
  text: string;
  /** Names of those who loved it (their initials are shown). */
  lovedBy: string[];
  photos?: ExamplePhoto[];
  /** How long ago it was written, in days (the wall shows the newest first). */
  daysAgo: number;
}

export interface ExampleCandle {
  kind: 'candle' | 'flower';
  name: string;
  message?: string;
  /** How long ago, in hours. */
  hoursAgo: number;
}

export interface ExampleMemorialContent {
  key: ExampleMemorialKey;
  id: string;
  firstName: string;
  lastName: string;
  birthDate: string;
  deathDate: string;
  birthPlace: string;
  deathPlace: string;
  quote: string;
  biographyHtml: string;
  /** In gallery order; the first is the cover. */
  gallery: ExamplePhoto[];
  memories: ExampleMemory[];
  candles: ExampleCandle[];
}

/** Quiet names for the many flowers and candles without a message. */
const visitorNames = [
  'Anja',
  'Bram',
  'Carla',
  'Dirk',
  'Els',
  'Frank',
  'Greet',
  'Hans',
  'Ineke',
  'Jeroen',
  'Karin',
  'Luuk',
  'Marloes',
  'Niels',
  'Olga',
  'Paul',
  'Renske',
  'Sjoerd',
  'Tineke',
  'Ruud',
  'Wilma',
  'Youssef',
  'Zoë',
  'Familie Smit',
  'Buren van nummer 12',
  'Mirjam',
  'Kees',
  'Ilse',
  'Henk',
  'Fatima',
  'Gerrit',
  'Lotte',
  'Wouter',
  'Nadia',
  'Bas',
  'Sophie',
];

/** `count` candles or flowers from `visitorNames`, spread over the past weeks, after the named ones. */
function quietCandles(kind: 'candle' | 'flower', count: number, offset: number): ExampleCandle[] {
  return Array.from({ length: count }, (_, i) => ({
    kind,
    name: visitorNames[(i + offset) % visitorNames.length]!,
    hoursAgo: 60 + i * 37 + offset * 5,
  }));
}

export const exampleMemorials: readonly ExampleMemorialContent[] = [
  {
    key: 'johanna',
    id: exampleMemorialIds.johanna,
    firstName: 'Johanna',
    lastName: 'de Vries',
    birthDate: '1941-05-02',
    deathDate: '2024-03-12',
    birthPlace: 'Lisse',
    deathPlace: 'Haarlem',
    quote: 'Haar lach vulde elke kamer, en haar tuin bloeide voor iedereen die langskwam.',
    biographyHtml: `
<p>Johanna werd in het voorjaar van 1941 geboren in Lisse, tussen de bollenvelden. Ze was de oudste van vijf en leerde al jong dat er altijd een extra bord op tafel kan.</p>
<h2>Juf Johanna</h2>
<p>Ruim dertig jaar stond ze voor de klas van de Dahliaschool in Haarlem. Ze leerde generaties kinderen lezen, en minstens zoveel kinderen dat je planten moet toespreken. Oud-leerlingen herkenden haar nog op de markt: <em>“Juf, ik lees nog elke avond.”</em></p>
<h2>Het huis aan de Kleverlaan</h2>
<p>Met Gerard kreeg ze drie kinderen en later zeven kleinkinderen. Elke zondag stond de koffie klaar. Wie bleef eten, ging naar huis met een bos zelfgekweekte dahlia’s, en wie verdriet had, kreeg een stuk appeltaart en alle tijd.</p>
<blockquote><p>“Een tuin is nooit af. Net als een mens.”</p></blockquote>
<h2>De laatste jaren</h2>
<p>Na het overlijden van Gerard bleef ze in het huis wonen, met de tuin als haar trots. Ze overleed op 12 maart 2024, thuis, met haar kinderen om zich heen en de eerste krokussen in bloei.</p>`,
    gallery: [
      { file: 'johanna-dahlias', caption: 'Haar tuin in de nazomer, vol dahlia’s.' },
      { file: 'johanna-koffietafel', caption: 'Zondag: koffie, appeltaart en een bos bloemen op tafel.' },
      { file: 'johanna-schoolklas', caption: 'Het lokaal van groep 3, waar ze dertig jaar lesgaf.' },
      { file: 'johanna-tuinbank', caption: 'Het bankje onder de appelboom.' },
    ],
    memories: [
      {
        yearLabel: '2023',
        author: 'Kleindochter Fleur',
        text: 'Ze leerde me dat je planten moet toespreken. Ik doe het nog steeds, elke ochtend, ook al lachen mijn huisgenoten erom.',
        lovedBy: ['Maarten de Vries', 'Sophie Jansen', 'Karin Bos', 'Tom Hendriks'],
        photos: [
          {
            file: 'johanna-dahlias',
            caption: 'De dahlia’s van oma',
            crop: { left: 0.05, top: 0.55, width: 0.45, height: 0.45 },
          },
        ],
        daysAgo: 2,
      },
      {
        yearLabel: '1978',
        author: 'Oud-leerling Ronald',
        text: 'Ik kon pas laat lezen en schaamde me daarvoor. Juf Johanna bleef na school met mij in het lokaal zitten, elke dinsdag, tot het lukte. Ze vertelde het nooit aan de anderen.',
        lovedBy: ['Ineke Vos', 'Fleur de Vries', 'Paul Mulder'],
        daysAgo: 5,
      },
      {
        yearLabel: 'Elke zondag',
        author: 'Buurvrouw Greet',
        text: 'Om half elf ging bij Johanna de deur open. Je hoefde niet te bellen. De koffie was sterk en de appeltaart nog warm.',
        lovedBy: ['Hans Smit', 'Anja Kok'],
        photos: [{ file: 'johanna-koffietafel', caption: 'De zondagse tafel' }],
        daysAgo: 8,
      },
      {
        yearLabel: '1969',
        author: 'Zus Marijke',
        text: 'Toen ik ging trouwen, plukte Johanna om vijf uur ’s ochtends alle rozen uit haar tuin voor mijn boeket. Ze zei dat ze toch te veel bloeiden.',
        lovedBy: [
          'Fleur de Vries',
          'Gerrit de Vries',
          'Lotte Bakker',
          'Karin Bos',
          'Els Visser',
          'Tom Hendriks',
        ],
        daysAgo: 12,
      },
      {
        yearLabel: '2015',
        author: 'Zoon Maarten',
        text: 'Mam leerde mijn dochter fietsen op het tuinpad. Ze rende erachteraan met haar schort nog aan, tot aan het hek en weer terug.',
        lovedBy: ['Fleur de Vries', 'Marijke de Vries'],
        daysAgo: 16,
      },
      {
        yearLabel: 'Zomer 1995',
        author: 'Collega Henk',
        text: 'Op het schoolreisje naar Artis raakte de bus kwijt. Johanna organiseerde in tien minuten een picknick op het gras, en de kinderen vonden het de mooiste dag van het jaar.',
        lovedBy: ['Ronald Peters', 'Ineke Vos'],
        daysAgo: 21,
      },
      {
        yearLabel: '2020',
        author: 'Kleinzoon Daan',
        text: 'In de coronatijd belde ze ons elke avond via de tablet. Meestal zagen we alleen haar voorhoofd, maar ze las wel voor tot we sliepen.',
        lovedBy: ['Fleur de Vries', 'Maarten de Vries', 'Sophie Jansen'],
        daysAgo: 27,
      },
      {
        yearLabel: '2022',
        author: 'Dochter Anne',
        text: 'Op het bankje onder de appelboom vertelde ze me over haar eigen moeder. Het was de eerste keer dat ik haar zag huilen, en daarna lachen om hetzelfde verhaal.',
        lovedBy: ['Maarten de Vries', 'Marijke de Vries', 'Daan de Vries'],
        photos: [{ file: 'johanna-tuinbank', caption: 'Het bankje' }],
        daysAgo: 33,
      },
      {
        yearLabel: '2024',
        author: 'Familie Smit, de buren',
        text: 'De dahlia’s die ze ons vorig najaar gaf, staan nu in onze tuin. We zullen ze elk jaar weer uit de grond halen en planten, zoals zij het ons liet zien.',
        lovedBy: ['Anne de Vries'],
        daysAgo: 40,
      },
    ],
    candles: [
      {
        kind: 'flower',
        name: 'Fleur',
        message: 'Voor de liefste oma. Ik praat nog steeds tegen je planten.',
        hoursAgo: 3,
      },
      { kind: 'candle', name: 'Ronald', message: 'Dank u wel, juf.', hoursAgo: 9 },
      { kind: 'flower', name: 'Buurvrouw Greet', message: 'Ik mis de koffie om half elf.', hoursAgo: 20 },
      { kind: 'candle', name: 'Marijke', message: 'Voor mijn grote zus.', hoursAgo: 30 },
      { kind: 'flower', name: 'Oud-collega’s van de Dahliaschool', hoursAgo: 44 },
      ...quietCandles('flower', 31, 0),
      ...quietCandles('candle', 12, 3),
    ],
  },
  {
    key: 'pieter',
    id: exampleMemorialIds.pieter,
    firstName: 'Pieter',
    lastName: 'Bakker',
    birthDate: '1948-11-19',
    deathDate: '2023-09-03',
    birthPlace: 'Oudeschild, Texel',
    deathPlace: 'Den Helder',
    quote: 'Een zeeman in hart en nieren, altijd op weg naar de volgende horizon.',
    biographyHtml: `
<p>Pieter werd geboren in Oudeschild op Texel, als zoon van een visser. Als jongen stond hij al op de kade als de kotters binnenliepen, en wist hij de naam van elk schip.</p>
<h2>Veertig jaar op de grote vaart</h2>
<p>Op zijn zeventiende monsterde hij aan als lichtmatroos. Hij voer naar Rio, Singapore en Vancouver en werd later stuurman op de vrachtvaart. Thuis kwamen ansichtkaarten uit havens waarvan niemand de naam kon uitspreken.</p>
<h2>Aan wal in Den Helder</h2>
<p>Met Ria woonde hij vijftig jaar in Den Helder, met uitzicht op het Marsdiep. Hij kende elke vuurtoren langs de Noordzeekust en vertelde verhalen waarvan niemand wist hoeveel er waar was — en dat maakte niet uit.</p>
<blockquote><p>“De zee maakt zich nooit druk. Waarom zouden wij?”</p></blockquote>
<p>Pieter overleed op 3 september 2023. Zijn as is, zoals hij wilde, uitgestrooid op zee bij Kijkduin.</p>`,
    gallery: [
      { file: 'pieter-vuurtoren', caption: 'Vuurtoren Kijkduin in de schemering, zijn lievelingsplek.' },
      { file: 'pieter-schip', caption: 'De vrachtboot waarop hij twaalf jaar stuurman was.' },
      { file: 'pieter-haven', caption: 'De haven van Den Helder bij zonsondergang.' },
      { file: 'pieter-dijk', caption: 'Stormwandeling op de dijk.' },
    ],
    memories: [
      {
        yearLabel: '1999',
        author: 'Zoon Maarten',
        text: 'Bij storm gingen we samen naar de dijk. “Kijk,” zei hij, “de zee maakt zich nooit druk.” Ik denk er elke herfst aan.',
        lovedBy: ['Ria Bakker', 'Sanne Bakker', 'Joost de Boer'],
        photos: [{ file: 'pieter-dijk', caption: 'Op de dijk' }],
        daysAgo: 3,
      },
      {
        yearLabel: '1972',
        author: 'Ria, zijn vrouw',
        text: 'Hij schreef me vanuit elke haven een kaart, ook als hij niets te vertellen had. “Het weer is goed, de soep is slecht, ik mis je.” Ik heb ze allemaal nog, 212 stuks.',
        lovedBy: [
          'Maarten Bakker',
          'Sanne Bakker',
          'Wim Koster',
          'Greet Koster',
          'Joost de Boer',
          'Tineke Visser',
        ],
        daysAgo: 6,
      },
      {
        yearLabel: '1985',
        author: 'Wim, oud-collega',
        text: 'Midden op de Golf van Biskaje viel de radar uit. Pieter navigeerde op de sterren en zong erbij. We kwamen precies op tijd aan in Lissabon.',
        lovedBy: ['Ria Bakker', 'Maarten Bakker'],
        photos: [{ file: 'pieter-schip', caption: 'Aan boord' }],
        daysAgo: 10,
      },
      {
        yearLabel: '2010',
        author: 'Kleindochter Sanne',
        text: 'Opa leerde me knopen leggen. De paalsteek kan ik nog steeds met mijn ogen dicht.',
        lovedBy: ['Ria Bakker', 'Maarten Bakker', 'Joost de Boer'],
        daysAgo: 15,
      },
      {
        yearLabel: 'Elke zaterdag',
        author: 'Visboer Joost',
        text: 'Pieter kwam elke zaterdag om tien uur een zak kibbeling halen en vertelde dan hoe het met de zee ging. Ik mis zijn verhalen meer dan ik had gedacht.',
        lovedBy: ['Ria Bakker'],
        daysAgo: 22,
      },
      {
        yearLabel: '2019',
        author: 'Buurman Ahmed',
        text: 'Toen wij net in de straat woonden, stond Pieter de eerste dag al op de stoep met een pan erwtensoep. “Voor de verhuizers,” zei hij, maar hij bleef zelf ook eten.',
        lovedBy: ['Ria Bakker', 'Maarten Bakker', 'Tineke Visser'],
        daysAgo: 30,
      },
      {
        yearLabel: '2023',
        author: 'Maarten en Sanne',
        text: 'Op een stille ochtend in september brachten we je terug naar zee. De vuurtoren stond erbij te kijken. Goede vaart, pap.',
        lovedBy: ['Ria Bakker', 'Wim Koster', 'Joost de Boer', 'Ahmed El Amrani'],
        photos: [
          {
            file: 'pieter-vuurtoren',
            caption: 'Kijkduin',
            crop: { left: 0.5, top: 0.2, width: 0.5, height: 0.6 },
          },
        ],
        daysAgo: 38,
      },
    ],
    candles: [
      { kind: 'candle', name: 'Ria', message: 'Voor altijd mijn kapitein.', hoursAgo: 5 },
      { kind: 'candle', name: 'Wim', message: 'Goede vaart, maat.', hoursAgo: 18 },
      { kind: 'flower', name: 'Sanne', message: 'Een paalsteek voor jou, opa.', hoursAgo: 26 },
      { kind: 'flower', name: 'Buren uit de Zeestraat', hoursAgo: 50 },
      ...quietCandles('flower', 25, 7),
      ...quietCandles('candle', 9, 11),
    ],
  },
  {
    key: 'sanne',
    id: exampleMemorialIds.sanne,
    firstName: 'Sanne',
    lastName: 'Jansen',
    birthDate: '1986-07-24',
    deathDate: '2024-01-21',
    birthPlace: 'Amersfoort',
    deathPlace: 'Utrecht',
    quote: 'Ze danste door het leven en nam ons allemaal mee.',
    biographyHtml: `
<p>Sanne groeide op in Amersfoort, als middelste van drie meiden. Ze wilde eerst balletdanseres worden, toen dierenarts, en werd uiteindelijk allebei een beetje: verpleegkundige, en danslerares op woensdagavond.</p>
<h2>Verpleegkundige</h2>
<p>Vijftien jaar werkte ze op de kinderafdeling van het ziekenhuis in Utrecht. Collega’s zeggen dat het stiller werd als ze vrij was. Ouders vergaten haar naam niet, kinderen haar liedjes nog minder.</p>
<h2>Woensdagavond</h2>
<p>In een oud buurthuis aan de gracht gaf ze les aan iedereen die wilde dansen: buurvrouwen, studenten, een gepensioneerde notaris. Niemand hoefde het goed te doen, zei ze, als je maar meedeed.</p>
<blockquote><p>“Dansen is gewoon bewegen met plezier. Dat kan iedereen.”</p></blockquote>
<h2>Vrienden</h2>
<p>Sanne was de vriendin die altijd als eerste belde: bij een nieuwe baan, een gebroken hart of gewoon op een dinsdag. Ze overleed op 21 januari 2024, veel te jong. Haar vrienden vullen deze pagina met foto’s van festivals, fietstochten en lange nachten aan de keukentafel.</p>`,
    gallery: [
      { file: 'sanne-tulpen', caption: 'Zonsopgang bij de tulpenvelden, haar jaarlijkse uitje in april.' },
      { file: 'sanne-fiets', caption: 'Haar fiets, altijd met bloemen in het mandje.' },
      { file: 'sanne-festival', caption: 'Festivalnacht met de vriendengroep.' },
      { file: 'sanne-keukentafel', caption: 'Lange avonden aan de keukentafel.' },
    ],
    memories: [
      {
        yearLabel: '2023',
        author: 'Vriendin Noor',
        text: 'Elk jaar op haar verjaardag dansen we in de woonkamer op haar lievelingsnummer. Dit jaar ook. Harder dan ooit.',
        lovedBy: ['Lisa Jansen', 'Eva Jansen', 'Mehmet Yilmaz', 'Kim de Graaf', 'Bas Vermeer'],
        photos: [{ file: 'sanne-festival', caption: 'Dansen tot het licht wordt' }],
        daysAgo: 1,
      },
      {
        yearLabel: '2016',
        author: 'Collega Mehmet',
        text: 'Op de kinderafdeling had Sanne voor elk kind een ander liedje. Toen een jongen van zes niet durfde te slapen, zong ze de hele nacht zachtjes bij zijn bed. ’s Ochtends was hij degene die haar wakker maakte.',
        lovedBy: ['Noor Haddou', 'Kim de Graaf', 'Lisa Jansen'],
        daysAgo: 4,
      },
      {
        yearLabel: 'Woensdagavond',
        author: 'Dansgroep van het buurthuis',
        text: 'We dansen nog steeds op woensdag. Er staat een lege plek vooraan, die niemand inneemt. Soms lachen we om een pasje dat zij ons leerde, en dan is ze er even bij.',
        lovedBy: ['Noor Haddou', 'Eva Jansen', 'Lisa Jansen', 'Truus van Dam'],
        daysAgo: 7,
      },
      {
        yearLabel: '2019',
        author: 'Zus Eva',
        text: 'De fietstocht naar de tulpenvelden, om vier uur ’s nachts vertrokken omdat jij de zon wilde zien opkomen boven de bloemen. Ik was chagrijnig tot precies het moment dat het licht werd.',
        lovedBy: ['Lisa Jansen', 'Noor Haddou'],
        photos: [
          { file: 'sanne-tulpen', caption: 'Zonsopgang' },
          { file: 'sanne-fiets', caption: 'De fiets, met bloemen' },
        ],
        daysAgo: 11,
      },
      {
        yearLabel: '2012',
        author: 'Huisgenoot Kim',
        text: 'In ons studentenhuis kookte jij op vrijdag voor iedereen, ook voor mensen die niemand kende. De keukentafel was te klein, dus we aten op de trap.',
        lovedBy: ['Noor Haddou', 'Bas Vermeer'],
        daysAgo: 14,
      },
      {
        yearLabel: '2021',
        author: 'Moeder van Lieke',
        text: 'Onze dochter lag drie weken op de kinderafdeling. Sanne kende na één dag haar knuffels bij naam. Lieke is nu negen en wil verpleegkundige worden.',
        lovedBy: ['Mehmet Yilmaz', 'Eva Jansen', 'Lisa Jansen'],
        daysAgo: 19,
      },
      {
        yearLabel: '2024',
        author: 'Bas',
        text: 'Je belde altijd als eerste. Nu bel ik maar gewoon jouw vrienden, zoals jij dat zou doen. Het helpt.',
        lovedBy: ['Noor Haddou', 'Kim de Graaf'],
        daysAgo: 25,
      },
      {
        yearLabel: '1994',
        author: 'Zus Lisa',
        text: 'Acht jaar oud, in een zelfgemaakte tutu op de keukentafel: “Dames en heren, de voorstelling begint!” Mam heeft er nog een foto van, en de kras in het tafelblad.',
        lovedBy: ['Eva Jansen', 'Noor Haddou', 'Kim de Graaf'],
        daysAgo: 31,
      },
      {
        yearLabel: '2018',
        author: 'Truus, 81 jaar',
        text: 'Ik kwam naar de dansles omdat mijn dochter me had aangemeld. Ik bleef omdat Sanne zei dat ik de mooiste draai van de groep had. Ik ben er elke week geweest.',
        lovedBy: ['Noor Haddou', 'Eva Jansen', 'Lisa Jansen', 'Mehmet Yilmaz', 'Bas Vermeer'],
        daysAgo: 36,
      },
      {
        yearLabel: '2020',
        author: 'Vriendin Noor',
        text: 'Tijdens de lockdown gaf ze dansles via de laptop vanaf haar balkon. De buren aan de overkant deden mee, met de ramen open.',
        lovedBy: ['Kim de Graaf', 'Bas Vermeer'],
        daysAgo: 44,
      },
    ],
    candles: [
      { kind: 'flower', name: 'Noor', message: 'Voor altijd mijn danspartner.', hoursAgo: 2 },
      {
        kind: 'candle',
        name: 'Kinderafdeling, team 4',
        message: 'We zingen je liedjes nog elke dag.',
        hoursAgo: 7,
      },
      { kind: 'flower', name: 'Eva en Lisa', message: 'Voor ons middelste zusje.', hoursAgo: 15 },
      { kind: 'candle', name: 'Truus', hoursAgo: 29 },
      { kind: 'flower', name: 'De woensdaggroep', message: 'Eén, twee, drie — draai!', hoursAgo: 41 },
      ...quietCandles('flower', 43, 13),
      ...quietCandles('candle', 16, 17),
    ],
  },
];
