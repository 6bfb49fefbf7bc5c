import {
  apiPaths,
  apiPrefix,
  errorCodes,
  type CompanyProfile,
  type CompanyProfileInput,
  type Directory,
} from '@aandenken/contract';
import {
  municipalitiesForPlace,
  municipalitiesForPostcode,
  municipalityNamed,
} from '@aandenken/contract/municipalities';
import type { Deps } from '../../lib/deps.ts';
import type { Caller } from '../../lib/auth.ts';
import { streamStored } from '../../lib/media/storage.ts';
import { AppError, badRequest, notFound, unauthorized } from '../../lib/errors.ts';
import { probeImage, renderVariant, type ImageType } from '../../lib/media/image.ts';
import { sniff } from '../../lib/media/sniff.ts';
import { heicUnsupported, type ReceivedFile } from '../../lib/media/upload.ts';
import { companyRepository } from './repository.ts';
import { isTeamMember } from '../../shared/team.ts';
import { isUuid } from '../../lib/ids.ts';
import {
  companyProfileRepository,
  profileFromRow,
  publicFromProfile,
  type LogoUrls,
  type LogoVariant,
} from './profile-repository.ts';

/** The widths a logo is kept in (WebP): never wider than the upload. */
export const LOGO_WIDTHS = [160, 320] as const;
export const DIRECTORY_LIMIT = 200;
const VARIANT = /^w[0-9]{2,4}\.webp$/;
const POSTCODE = /^([1-9][0-9]{3})\s?([a-z]{2})?$/i;

export const companySuspended = () =>
  new AppError(
    403,
    'COMPANY_SUSPENDED',
    'Je bedrijf is geschorst door het team van Aandenken. Zolang de schorsing duurt, kun je als partner niets wijzigen. Neem contact met ons op via de contactpagina.',
  );
/** JSON with the keys of every object sorted (jsonb keeps its own key order). */
const canonical = (v: unknown): string =>
  JSON.stringify(v, (_k, x: unknown) =>
    x && typeof x === 'object' && !Array.isArray(x)
      ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : 1)))
      : x,
  );
const missing = () => notFound('Dit bedrijf bestaat niet.');
const logoNotImage = () =>
  new AppError(
    415,
    errorCodes.unsupportedMediaType,
    'Kies een logo als afbeelding: JPEG, PNG, WebP, AVIF of GIF.',
    { media: 'Geen afbeelding' },
  );

export function companyProfileService({ db, config, storage }: Pick<Deps, 'db' | 'config' | 'storage'>) {
  const repo = companyProfileRepository(db);
  const base = `${config.API_URL}${apiPrefix}`;
  const logoUrls: LogoUrls = (logoId, variants) => {
    const sized = [...variants].sort((a, b) => a.width - b.width);
    const url = (v: LogoVariant) => `${base}${apiPaths.publicCompanyLogo(logoId, v.name)}`;
    const largest = sized[sized.length - 1];
    if (!largest) return null;
    return {
      url: url(largest),
      width: largest.width,
      height: largest.height,
      srcSet: sized.map((v) => `${url(v)} ${v.width}w`).join(', '),
    };
  };

  /**
   * The company's own users while it is active; a user of a suspended company is told so (403); anyone
   * else gets the 404 of a company that does not exist. `readByTeam`: the team may read too.
   */
  async function requirePartner(caller: Caller, id: string, readByTeam = false) {
    if (caller.kind !== 'user') throw unauthorized();
    if (!isUuid(id)) throw missing();
    const member = await repo.membership(id, caller.userId);
    if (member?.state === 'active') return caller;
    if (member) throw companySuspended();
    if (readByTeam && (await isTeamMember({ db, config }, caller))) return caller;
    throw missing();
  }

  async function profile(id: string): Promise<CompanyProfile> {
    const row = await repo.findById(id);
    if (!row) throw missing();
    return profileFromRow(row, logoUrls);
  }

  /** Checks what the schema cannot: the municipalities against the shipped list; tidies the rest. */
  function normalise(input: CompanyProfileInput): CompanyProfileInput {
    const unknown = input.workArea.municipalities.filter((m) => !municipalityNamed(m));
    if (unknown.length > 0)
      throw badRequest(
        `Onbekende gemeente: ${unknown.slice(0, 3).join(', ')}. Kies gemeenten uit de lijst.`,
        {
          'workArea.municipalities': 'Kies gemeenten uit de lijst',
        },
      );
    const ranges = [...input.workArea.postcodeRanges]
      .sort((a, b) => a.from - b.from || a.to - b.to)
      .filter((r, i, all) => i === 0 || r.from !== all[i - 1]!.from || r.to !== all[i - 1]!.to);
    const pc = input.postalCode.toUpperCase().replace(/\s+/g, '');
    return {
      ...input,
      postalCode: `${pc.slice(0, 4)} ${pc.slice(4)}`,
      website: input.website ? input.website : null,
      description: input.description ? input.description : null,
      prices: input.prices.map((p) => ({ ...p, description: p.description ? p.description : null })),
      workArea: {
        municipalities: [...new Set(input.workArea.municipalities)].sort((a, b) => a.localeCompare(b, 'nl')),
        postcodeRanges: ranges,
      },
    };
  }

  return {
    companySuspended,

    async get(caller: Caller, id: string) {
      await requirePartner(caller, id, true);
      return profile(id);
    },

    /**
     * Saves the whole profile; the audit entry (with the names of the fields that changed) is written in
     * the same transaction. Nothing changed: nothing written.
     */
    async update(caller: Caller, id: string, raw: CompanyProfileInput) {
      const user = await requirePartner(caller, id);
      const input = normalise(raw);
      await db.transaction(async (tx) => {
        const r = companyProfileRepository(tx);
        const row = await r.findById(id, true);
        if (!row) throw missing();
        if (row.state !== 'active') throw companySuspended();
        const before = profileFromRow(row, logoUrls);
        const after = { ...before, ...input };
        const fields = [
          'name',
          'companyType',
          'streetName',
          'houseNumber',
          'postalCode',
          'city',
          'phoneNumber',
          'email',
          'website',
          'description',
          'prices',
          'workArea',
        ] as const;
        const changed = fields.filter((f) => canonical(before[f] ?? null) !== canonical(after[f] ?? null));
        if (changed.length === 0) return;
        await r.update(id, input);
        await companyRepository(tx).audit({
          companyId: id,
          actor: user,
          action: 'company.profile_updated',
          details: { changed },
        });
      });
      return profile(id);
    },

    /** Runs once the upload's fields are known, before the file is read. */
    authorizeLogo: (caller: Caller, id: string) => requirePartner(caller, id).then(() => undefined),

    /**
     * A new logo: the file must be an image whose type, first bytes and full decode agree; it is stored
     * as WebP in LOGO_WIDTHS (no metadata leaves: lib/media/image.ts) under a new id, and the old logo's
     * files go once the change is committed.
     */
    async setLogo(caller: Caller, id: string, file: ReceivedFile) {
      const user = await requirePartner(caller, id);
      const sniffed = sniff(file.head);
      if (sniffed === 'image/heic') throw heicUnsupported();
      if (!sniffed || !sniffed.startsWith('image/')) throw logoNotImage();
      if (sniffed !== file.declaredType)
        throw new AppError(
          415,
          errorCodes.unsupportedMediaType,
          'De inhoud van het bestand komt niet overeen met het opgegeven bestandstype.',
          { media: 'Inhoud en bestandstype komen niet overeen' },
        );
      const input = { path: file.path };
      const { width } = await probeImage(input, sniffed as ImageType);
      const logoId = crypto.randomUUID();
      const variants: LogoVariant[] = [];
      let old: string | null = null;
      try {
        for (const w of [...new Set(LOGO_WIDTHS.map((w) => Math.min(w, width)))]) {
          const v = await renderVariant(input, w, 'webp');
          const name = `w${v.width}.webp`;
          if (variants.some((x) => x.name === name)) continue;
          await storage.put(`${logoId}/${name}`, v.data);
          variants.push({ name, width: v.width, height: v.height });
        }
        await db.transaction(async (tx) => {
          const row = await companyProfileRepository(tx).findById(id, true);
          if (!row) throw missing();
          if (row.state !== 'active') throw companySuspended();
          old = row.logo_id;
          await companyProfileRepository(tx).setLogo(id, logoId, variants);
          await companyRepository(tx).audit({
            companyId: id,
            actor: user,
            action: 'company.logo_changed',
            details: { logoId },
          });
        });
      } catch (err) {
        await storage.deletePrefix(logoId).catch(() => {});
        throw err;
      }
      if (old) await storage.deletePrefix(old).catch(() => {});
      return profile(id);
    },

    async removeLogo(caller: Caller, id: string) {
      const user = await requirePartner(caller, id);
      let old: string | null = null;
      await db.transaction(async (tx) => {
        const row = await companyProfileRepository(tx).findById(id, true);
        if (!row) throw missing();
        if (row.state !== 'active') throw companySuspended();
        old = row.logo_id;
        if (!old) return;
        await companyProfileRepository(tx).setLogo(id, null, []);
        await companyRepository(tx).audit({ companyId: id, actor: user, action: 'company.logo_removed' });
      });
      if (old) await storage.deletePrefix(old).catch(() => {});
      return profile(id);
    },

    /** The public page's data: an active company only; suspended or unknown is 404. */
    async publicCompany(slug: string) {
      const row = /^[a-z0-9]+(-[a-z0-9]+)*$/.test(slug) ? await repo.findActiveBySlug(slug) : undefined;
      if (!row) throw missing();
      const cared = await companyRepository(db).listCaredPagesShown(row.id);
      return publicFromProfile(
        profileFromRow(row, logoUrls),
        cared.map((c) => ({
          id: c.memorialId,
          slug: c.slug,
          name: c.title,
          birthDate: c.birthDate,
          deathDate: c.deathDate,
        })),
      );
    },

    /**
     * The directory. A postcode (1234 or 1234 AB) finds the companies whose postcode ranges hold it or whose
     * municipalities include the one it lies in (where the shipped list knows it); a place name finds the
     * companies working in its municipality (or municipalities: 'Beek'); no query lists every company.
     */
    async directory(q: string | undefined): Promise<Directory> {
      const query = (q ?? '').trim().replace(/\s+/g, ' ');
      if (!query)
        return {
          query: null,
          match: 'all',
          municipalities: [],
          items: await repo.directory(null, DIRECTORY_LIMIT, logoUrls),
        };
      const pc = POSTCODE.exec(query);
      if (pc) {
        const postcode = Number(pc[1]);
        const municipalities = municipalitiesForPostcode(postcode).map((m) => m.name);
        return {
          query,
          match: 'postcode',
          municipalities,
          items: await repo.directory({ municipalities, postcode }, DIRECTORY_LIMIT, logoUrls),
        };
      }
      const municipalities = municipalitiesForPlace(query).map((m) => m.name);
      if (municipalities.length === 0) return { query, match: 'unknown', municipalities: [], items: [] };
      return {
        query,
        match: 'place',
        municipalities,
        items: await repo.directory({ municipalities, postcode: null }, DIRECTORY_LIMIT, logoUrls),
      };
    },

    /** A logo's file while its company is active; anything else is 404. */
    async logoFile(logoId: string, variant: string) {
      const gone = () => notFound('Dit logo bestaat niet.');
      if (!isUuid(logoId) || !VARIANT.test(variant)) throw gone();
      const variants = await repo.activeLogo(logoId.toLowerCase());
      if (!variants?.some((v) => v.name === variant)) throw gone();
      return streamStored(storage, `${logoId.toLowerCase()}/${variant}`, gone);
    },
  };
}
