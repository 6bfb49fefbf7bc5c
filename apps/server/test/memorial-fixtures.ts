import { createHash, randomBytes } from 'node:crypto';
import { guestTokens } from '../src/modules/guests/tokens.ts';
import { guestService } from '../src/modules/guests/service.ts';
import { memorialService } from '../src/modules/memorials/service.ts';
import { issueUserToken, type TestContext } from './helpers.ts';

/** Everyone the authorization matrix asks about. */
export const personas = [
  'anonymous',
  'guestThis',
  'guestOther',
  'stranger',
  'guest',
  'contributor',
  'editor',
  'owner',
] as const;
export type Persona = (typeof personas)[number];

export interface User {
  token: string;
  userId: string;
  email: string;
}

export type Users = Record<'owner' | 'editor' | 'contributor' | 'guest' | 'stranger' | 'otherOwner', User>;

export const auth = (token: string | null | undefined): Record<string, string> =>
  token ? { authorization: `Bearer ${token}` } : {};

export async function createUsers(t: TestContext, tag = randomBytes(3).toString('hex')): Promise<Users> {
  const make = async (name: string) => {
    const email = `${name}-${tag}@example.nl`;
    const u = await issueUserToken(t, { email, name: `${name[0]!.toUpperCase()}${name.slice(1)} ${tag}` });
    // The user row appears on first use of the token; make it exist for fixtures that insert members directly.
    await t.db.query(`INSERT INTO users (id, email, name) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING`, [
      u.userId,
      email,
      name,
    ]);
    return { ...u, email };
  };
  return {
    owner: await make('eigenaar'),
    editor: await make('redacteur'),
    contributor: await make('bijdrager'),
    guest: await make('gast'),
    stranger: await make('vreemde'),
    otherOwner: await make('andere'),
  };
}

export async function createMemorial(
  t: TestContext,
  owner: User,
  opts: {
    status?: 'concept' | 'active' | 'archived';
    visibility?: 'private' | 'public';
    firstName?: string;
    lastName?: string;
  } = {},
): Promise<{ id: string; accessCode: string }> {
  // Through the service (the HTTP route is rate limited per address; its own tests cover it).
  const service = memorialService({ db: t.db });
  const caller = { kind: 'user' as const, userId: owner.userId, email: owner.email, name: null };
  const { id } = await service.createConcept(caller, {
    firstName: opts.firstName ?? 'Johanna',
    lastName: opts.lastName ?? 'Willems',
  });
  const status = opts.status ?? 'active';
  if (status !== 'concept') await service.update(caller, { id, status: 'active' });
  if (status === 'archived') await service.update(caller, { id, status: 'archived' });
  if (opts.visibility) await service.update(caller, { id, visibility: opts.visibility });
  const m = await service.get(caller, id);
  return { id, accessCode: m.accessCode! };
}

export async function addMember(
  t: TestContext,
  memorialId: string,
  user: User,
  role: 'owner' | 'editor' | 'contributor' | 'guest',
) {
  const { rows } = await t.db.query<{ id: string }>(
    'INSERT INTO memorial_members (memorial_id, user_id, role) VALUES ($1, $2, $3) RETURNING id',
    [memorialId, user.userId, role],
  );
  return rows[0]!.id;
}

/** A guest token exactly as POST /guest/token issues it (same key, claims, version). */
export async function guestTokenFor(t: TestContext, memorialId: string): Promise<string> {
  const { rows } = await t.db.query<{ v: number }>(
    'SELECT access_code_version AS v FROM memorials WHERE id = $1',
    [memorialId],
  );
  return (
    await guestTokens({ db: t.db, config: t.config }).issue({ memorialId, accessCodeVersion: rows[0]!.v })
  ).token;
}

/** An open invite with a known code (as if mailed), for tests that are not about sending. */
export async function createInvite(
  t: TestContext,
  memorialId: string,
  invitedBy: User,
  role: 'editor' | 'contributor' | 'guest' = 'guest',
) {
  const code = randomBytes(24).toString('base64url');
  const { rows } = await t.db.query<{ id: string }>(
    `INSERT INTO guest_invites (memorial_id, email, name, role, code_hash, invited_by, expires_at)
     VALUES ($1, $2, 'Genodigde', $3, $4, $5, now() + interval '14 days') RETURNING id`,
    [
      memorialId,
      `genodigde-${code.slice(0, 6).toLowerCase()}@example.nl`,
      role,
      createHash('sha256').update(code).digest('base64url'),
      invitedBy.userId,
    ],
  );
  return { id: rows[0]!.id, code };
}

export async function createLinkToken(t: TestContext, memorialId: string, inviteId: string | null = null) {
  return guestService({ db: t.db, config: t.config }).createLinkToken(t.db, {
    memorialId,
    purpose: inviteId ? 'invite' : 'access',
    inviteId,
    expiresAt: new Date(Date.now() + 3600_000),
  });
}

/** One memorial with a member of every role, a guest token, an open invite and a link token. */
export interface World {
  users: Users;
  memorialId: string;
  otherMemorialId: string;
  accessCode: string;
  memberIds: Record<'owner' | 'editor' | 'contributor' | 'guest', string>;
  invite: { id: string; code: string };
  linkToken: string;
  tokens: Record<Persona, string | null>;
}

export async function createWorld(
  t: TestContext,
  users: Users,
  other: { memorialId: string; guestToken: string },
  opts: { visibility?: 'private' | 'public' } = {},
): Promise<World> {
  const m = await createMemorial(t, users.owner, {
    status: 'active',
    visibility: opts.visibility ?? 'private',
  });
  const ownerMember = await t.db.query<{ id: string }>(
    'SELECT id FROM memorial_members WHERE memorial_id = $1 AND user_id = $2',
    [m.id, users.owner.userId],
  );
  const memberIds = {
    owner: ownerMember.rows[0]!.id,
    editor: await addMember(t, m.id, users.editor, 'editor'),
    contributor: await addMember(t, m.id, users.contributor, 'contributor'),
    guest: await addMember(t, m.id, users.guest, 'guest'),
  };
  const invite = await createInvite(t, m.id, users.owner);
  return {
    users,
    memorialId: m.id,
    otherMemorialId: other.memorialId,
    accessCode: m.accessCode,
    memberIds,
    invite,
    linkToken: await createLinkToken(t, m.id, invite.id),
    tokens: {
      anonymous: null,
      guestThis: await guestTokenFor(t, m.id),
      guestOther: other.guestToken,
      stranger: users.stranger.token,
      guest: users.guest.token,
      contributor: users.contributor.token,
      editor: users.editor.token,
      owner: users.owner.token,
    },
  };
}

export interface Company {
  id: string;
  name: string;
  /** Its public page's address part. */
  slug: string;
  /** Its first user, an administrator: the applicant, who signed in with the address they applied with. */
  admin: User;
}

let applications = 0;
/**
 * An approved company (Lindelaan 12, 3511 AB; applicant Anna de Vries) with its first user, an administrator,
 * through the real routes: the application, the team's approval, the applicant's first sign-in.
 */
export async function createCompany(
  t: TestContext,
  opts: { name?: string; email?: string } = {},
): Promise<Company> {
  const tag = randomBytes(4).toString('hex');
  const name = opts.name ?? `Uitvaartzorg ${tag}`;
  const email = opts.email ?? `eigenaar-${tag}@linde.nl`;
  const n = applications++;
  const application = await t.app.inject({
    method: 'POST',
    url: '/core/companies/request',
    // Applications are limited per client address: each its own.
    remoteAddress: `10.251.${(n >> 8) & 255}.${n & 255}`,
    payload: {
      companyType: 'FuneralDirector',
      firstName: 'Anna',
      lastName: 'de Vries',
      companyName: name,
      streetName: 'Lindelaan',
      houseNumber: '12',
      postalCode: '3511 AB',
      phoneNumber: '030 123 4567',
      email,
    },
  });
  if (application.statusCode !== 201) throw new Error(`company application: ${application.body}`);
  const id = application.json().id as string;
  const team = await issueUserToken(t, { email: 'team@aandenken.test', name: 'Team' });
  const approved = await t.app.inject({
    method: 'POST',
    url: `/core/team/applications/${id}/approve`,
    headers: auth(team.token),
  });
  if (approved.statusCode !== 200) throw new Error(`company approval: ${approved.body}`);
  const admin = await issueUserToken(t, { email, name: 'Anna de Vries' });
  // The first sign-in claims the company for the verified address it applied with.
  const roles = await t.app.inject({ url: '/core/account/roles', headers: auth(admin.token) });
  if (roles.json().companies?.length !== 1) throw new Error(`company not claimed: ${roles.body}`);
  return { id, name, slug: approved.json().company.slug as string, admin: { ...admin, email } };
}
