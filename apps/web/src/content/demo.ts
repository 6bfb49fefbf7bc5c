import { images, type ImageAsset } from './images.ts';

/** The demo memorial on the landing page (a heading, a first name, 1999 - 2024). */
export const demoMemorial = {
  heading: 'Ter nagedachtenis aan',
  firstName: 'Emma',
  years: '1999 - 2024',
  intro:
    'Fotograaf, zus, wandelaar en onvermoeibare optimist. Op deze pagina verzamelen familie en vrienden wat Emma voor hen betekende.',
  slides: [images.emmaPortrait, images.lake, images.bouquet, images.candle] as ImageAsset[],
};

/** A memory on the wall. */
export interface SampleMemory {
  year: string;
  author: string;
  text: string;
  lovedBy: string[];
  images: ImageAsset[];
}

export const sampleMemories: readonly SampleMemory[] = [
  {
    year: '2023',
    author: 'Lotte, haar zus',
    text: 'Onze laatste zomer in Zeeland: jij met je camera bij zonsopgang, ik met koffie in een thermoskan. Je zei dat het licht daar “zachter” was. Je had gelijk.',
    lovedBy: ['MV', 'JB', 'SK', 'TH'],
    images: [images.lake],
  },
  {
    year: '2017',
    author: 'Daan',
    text: 'Eerste jaar op de kunstacademie. Jij was de enige die de docent durfde te zeggen dat zijn opdracht saai was — en je kreeg er een tien voor.',
    lovedBy: ['LE', 'RB'],
    images: [],
  },
  {
    year: '2021',
    author: 'Mama',
    text: 'Je bracht elke vrijdag bloemen mee, ook als er niets te vieren viel. “Dan vieren we gewoon vrijdag,” zei je.',
    lovedBy: ['PV', 'LE', 'DK', 'AB', 'IJ'],
    images: [images.bouquet],
  },
  {
    year: '2019',
    author: 'Yusuf',
    text: 'De wandeling door de Veluwe waarbij we compleet verdwaalden. Jij vond het prachtig; ik had honger. Nu is het een van mijn liefste herinneringen.',
    lovedBy: ['MV', 'EK'],
    images: [images.forest],
  },
  {
    year: '2024',
    author: 'Collega’s van de studio',
    text: 'Je bureau staat er nog, met het plantje dat je van iedereen moest water geven. Het groeit als kool. We zorgen ervoor.',
    lovedBy: ['SK', 'TH', 'NB'],
    images: [],
  },
  {
    year: '2010',
    author: 'Opa Henk',
    text: 'Elf jaar oud en vastbesloten om de hele Elfstedenroute te fietsen. We haalden Sneek. Je was trotser dan ik ooit iemand heb gezien.',
    lovedBy: ['PV', 'LO'],
    images: [images.candle],
  },
];
