import { exampleMemorialIds } from '@aandenken/contract';
import { images, type ImageAsset } from './images.ts';

/** The three sample memorial profiles. */
export interface ExampleMemorial {
  id: string;
  /** The real example memorial created on first start (server: modules/examples). */
  memorialId: string;
  title: string;
  description: string;
  location: string;
  /** ISO date of death. */
  date: string;
  born: string;
  image: ImageAsset;
  stats: { flowers: number; memories: number; stories: number };
  /** Longer text for the /example gallery. */
  story: string;
  memory: { author: string; text: string };
}

export const exampleMemorials: readonly ExampleMemorial[] = [
  {
    id: 'johanna',
    memorialId: exampleMemorialIds.johanna,
    title: 'Johanna de Vries',
    description: '“Haar lach vulde elke kamer, en haar tuin bloeide voor iedereen die langskwam.”',
    location: 'Haarlem',
    born: '1941-05-02',
    date: '2024-03-12',
    image: images.johanna,
    stats: { flowers: 34, memories: 9, stories: 3 },
    story:
      'Johanna was onderwijzeres, moeder van drie en oma van zeven. Elke zondag stond de koffie klaar en wie bleef eten, ging naar huis met een bos zelfgekweekte dahlia’s.',
    memory: {
      author: 'Kleindochter Fleur',
      text: 'Ze leerde me dat je planten moet toespreken. Ik doe het nog steeds.',
    },
  },
  {
    id: 'pieter',
    memorialId: exampleMemorialIds.pieter,
    title: 'Pieter Bakker',
    description: '“Een zeeman in hart en nieren, altijd op weg naar de volgende horizon.”',
    location: 'Den Helder',
    born: '1948-11-19',
    date: '2023-09-03',
    image: images.pieter,
    stats: { flowers: 27, memories: 7, stories: 2 },
    story:
      'Pieter voer veertig jaar op de grote vaart en kende elke vuurtoren langs de Noordzeekust. Thuis vertelde hij verhalen waarvan niemand wist hoeveel er waar was — en dat maakte niet uit.',
    memory: {
      author: 'Zoon Maarten',
      text: 'Bij storm gingen we samen naar de dijk. “Kijk,” zei hij, “de zee maakt zich nooit druk.”',
    },
  },
  {
    id: 'sanne',
    memorialId: exampleMemorialIds.sanne,
    title: 'Sanne Jansen',
    description: '“Ze danste door het leven en nam ons allemaal mee.”',
    location: 'Utrecht',
    born: '1986-07-24',
    date: '2024-01-21',
    image: images.sanne,
    stats: { flowers: 46, memories: 10, stories: 3 },
    story:
      'Sanne was verpleegkundige, danslerares op woensdagavond en de vriendin die altijd als eerste belde. Haar vrienden vullen haar pagina met foto’s van festivals, fietstochten en lange nachten aan de keukentafel.',
    memory: {
      author: 'Vriendin Noor',
      text: 'Elk jaar op haar verjaardag dansen we in de woonkamer op haar lievelingsnummer.',
    },
  },
];
