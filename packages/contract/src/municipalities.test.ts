import { describe, expect, it } from 'vitest';
import {
  municipalities,
  municipalitiesForPlace,
  municipalitiesForPostcode,
  municipalityNamed,
  placeKey,
  provinces,
} from './municipalities.ts';

describe('the shipped list of Dutch municipalities', () => {
  it('has the 342 municipalities of 1 January 2025, each once, in every province', () => {
    expect(municipalities).toHaveLength(342);
    expect(new Set(municipalities.map((m) => m.name)).size).toBe(342);
    const per = Object.fromEntries(
      provinces.map((p) => [p, municipalities.filter((m) => m.province === p).length]),
    );
    expect(per).toEqual({
      Groningen: 10,
      Fryslân: 18,
      Drenthe: 12,
      Overijssel: 25,
      Flevoland: 6,
      Gelderland: 51,
      Utrecht: 26,
      'Noord-Holland': 44,
      'Zuid-Holland': 50,
      Zeeland: 13,
      'Noord-Brabant': 56,
      Limburg: 31,
    });
  });

  it('finds a municipality by one of its places, loosely written', () => {
    const names = (q: string) => municipalitiesForPlace(q).map((m) => m.name);
    expect(names('Sneek')).toEqual(['Súdwest-Fryslân']);
    expect(names('sudwest fryslan')).toEqual(['Súdwest-Fryslân']);
    expect(names('Den Haag')).toEqual(["'s-Gravenhage"]);
    expect(names('den bosch')).toEqual(["'s-Hertogenbosch"]);
    expect(names('Bergen').sort()).toEqual(['Bergen (L.)', 'Bergen (NH.)']);
    expect(names('Weesp')).toEqual(['Amsterdam']);
    expect(names('Atlantis')).toEqual([]);
    expect(names('  ')).toEqual([]);
    expect(municipalityNamed('Zeist')?.province).toBe('Utrecht');
    expect(placeKey("'s-Gravenzande")).toBe(placeKey('s Gravenzande'));
  });

  it('knows postcodes only where a range lies in one municipality', () => {
    expect(municipalitiesForPostcode(1012).map((m) => m.name)).toEqual(['Amsterdam']);
    expect(municipalitiesForPostcode(3512).map((m) => m.name)).toEqual(['Utrecht']);
    expect(municipalitiesForPostcode(3705)).toEqual([]);
    const ranges = municipalities.flatMap((m) => (m.postcodes ?? []).map(([from, to]) => ({ from, to })));
    for (const r of ranges) expect(r.from).toBeLessThanOrEqual(r.to);
    const sorted = ranges.sort((a, b) => a.from - b.from);
    for (let i = 1; i < sorted.length; i++) expect(sorted[i]!.from).toBeGreaterThan(sorted[i - 1]!.to);
  });
});
