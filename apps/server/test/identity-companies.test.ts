import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, issueUserToken, type TestContext } from './helpers.ts';
import { refresh, registerThroughProvider, signInWithPassword, verifyWithPassword } from './identity-flow.ts';

let t: TestContext;
let companyId: string;
beforeAll(async () => {
  t = await createTestApp({ ADMIN_EMAILS: 'team@aandenken.test,beheer@aandenken.test' });
  const res = await t.app.inject({
    method: 'POST',
    url: '/core/companies/request',
    payload: {
      companyType: 'Crematorium',
      firstName: 'Iris',
      lastName: 'Smit',
      companyName: 'Crematorium De Stilte',
      streetName: 'Stiltelaan',
      houseNumber: '3',
      postalCode: '3511 AB',
      phoneNumber: '030 123 4567',
      email: 'iris@destilte.nl',
    },
  });
  companyId = res.json().id;
});
afterAll(async () => t?.close());

const get = (id: string, token?: string) =>
  t.app.inject({ url: `/core/companies/${id}`, headers: token ? { authorization: `Bearer ${token}` } : {} });

describe('GET /core/companies/{id}', () => {
  it('shows the application to a team member', async () => {
    const { token } = await issueUserToken(t, { email: 'Team@Aandenken.test', name: 'Team' });
    const res = await get(companyId, token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: companyId,
      companyName: 'Crematorium De Stilte',
      status: 'pending',
      email: 'iris@destilte.nl',
    });
  });

  it('answers 401 without a token and 404 for other users, as for a missing one', async () => {
    const anonymous = await get(companyId);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().code).toBe('UNAUTHORIZED');
    const { token } = await issueUserToken(t, { email: 'iris@destilte.nl', name: 'Iris' });
    const other = await get(companyId, token);
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual({
      code: 'NOT_FOUND',
      message: 'Dit bedrijf of deze partneraanvraag bestaat niet.',
    });
  });

  it('does not trust a team address until its owner has verified it', async () => {
    // Anyone can register with the team's address; it counts only after the mailed link is followed.
    const { tokens } = await registerThroughProvider(t.app, {
      name: 'Beheer',
      email: 'beheer@aandenken.test',
      password: 'lang-genoeg-wachtwoord',
    });
    expect((await get(companyId, tokens.access_token)).statusCode).toBe(404);
    const mail = await t.smtp.waitFor(
      (m) => m.to.includes('beheer@aandenken.test') && m.subject.startsWith('Bevestig'),
    );
    const link = /(http:\/\/\S+)/.exec(mail.text)![1]!.replace('http://localhost:8080', '');
    expect((await verifyWithPassword(t.app, link, 'lang-genoeg-wachtwoord')).statusCode).toBe(200);
    // The sign-in from before the verification may be whoever registered the address first: it ends.
    expect((await get(companyId, tokens.access_token)).statusCode).toBe(404);
    expect((await refresh(t.app, tokens.refresh_token)).json().error).toBe('invalid_grant');
    // eslint-disable-next-line no-restricted-syntax -- tokens count in whole seconds
    await new Promise((r) => setTimeout(r, 1100)); // tokens from the second of the verification do not count
    const { tokens: fresh } = await signInWithPassword(
      t.app,
      'beheer@aandenken.test',
      'lang-genoeg-wachtwoord',
    );
    expect((await get(companyId, fresh.access_token)).statusCode).toBe(200);
  });

  it('answers 404 for an unknown or malformed id, for the team only', async () => {
    const { token } = await issueUserToken(t, { email: 'team@aandenken.test', name: 'Team' });
    expect((await get('00000000-0000-4000-8000-000000000000', token)).statusCode).toBe(404);
    expect((await get('geen-id', token)).statusCode).toBe(404);
    expect((await get('geen-id')).statusCode).toBe(401);
  });
});
