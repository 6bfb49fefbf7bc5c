const number = new Intl.NumberFormat('nl-NL');

/**
 * The book's sentence about the candles and flowers, in correct Dutch: singular or plural per part ('werd 1
 * kaarsje', 'werden 12 kaarsjes'), a part with none left out, and a sentence of its own when there are none.
 */
export function tributesSentence(candles: number, flowers: number): string {
  const parts = [
    { n: candles, one: 'kaarsje', more: 'kaarsjes', done: 'aangestoken' },
    { n: flowers, one: 'bloem', more: 'bloemen', done: 'gelegd' },
  ].filter((p) => p.n > 0);
  if (!parts.length) return 'Op de gedenkpagina zijn nog geen kaarsjes aangestoken of bloemen gelegd.';
  const verb = (n: number) => (n === 1 ? 'werd' : 'werden');
  const clauses = parts.map(
    (p, i) =>
      // The second part leaves out the verb only when it is the same ('werden … en 3 bloemen gelegd').
      `${i > 0 && verb(p.n) === verb(parts[0]!.n) ? '' : `${verb(p.n)} `}${number.format(p.n)} ${p.n === 1 ? p.one : p.more} ${p.done}`,
  );
  return `Op de gedenkpagina ${clauses.join(' en ')}.`;
}
