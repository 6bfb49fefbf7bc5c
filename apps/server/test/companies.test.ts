import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from './helpers.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const valid = {
  companyType: 'FuneralDirector',
  firstName: 'Anna',
  lastName: 'de Vries',
  companyName: 'Uitvaartzorg De Linde',
  streetName: 'Lindelaan',
  houseNumber: '12a',
  postalCode: '1234 AB',
  phoneNumber: '020 123 4567',
  email: 'anna@delinde.nl',
  additionalInfo: 'Wij werken in de regio Utrecht.',
};

describe('POST /core/companies/request', () => {
  it('stores a pending application with its company name and mails the team and the applicant', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/core/companies/request', payload: valid });
    expect(res.statusCode).toBe(201);
    const { id, status } = res.json();
    expect(status).toBe('pending');
    const { rows } = await t.db.query(
      'SELECT company_name, status, email FROM company_requests WHERE id = $1',
      [id],
    );
    expect(rows[0]).toEqual({
      company_name: 'Uitvaartzorg De Linde',
      status: 'pending',
      email: 'anna@delinde.nl',
    });

    const team = await t.smtp.waitFor((m) => m.to.includes('team@aandenken.test'));
    expect(team.subject).toContain('Uitvaartzorg De Linde');
    expect(team.text).toContain('Uitvaartondernemer');
    const applicant = await t.smtp.waitFor((m) => m.to.includes('anna@delinde.nl'));
    expect(applicant.text).toContain('24-48 uur');
  });

  it('requires a description of the services for the other type', async () => {
    const before = await t.db.query('SELECT count(*)::int AS n FROM company_requests');
    const res = await t.app.inject({
      method: 'POST',
      url: '/core/companies/request',
      payload: { ...valid, companyType: 'OtherServiceProvider' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields.serviceDescription).toBe('Omschrijf je diensten');
    const after = await t.db.query('SELECT count(*)::int AS n FROM company_requests');
    expect(after.rows[0]).toEqual(before.rows[0]);

    const ok = await t.app.inject({
      method: 'POST',
      url: '/core/companies/request',
      payload: {
        ...valid,
        companyType: 'OtherServiceProvider',
        serviceDescription: 'Rouwbloemen en drukwerk',
      },
    });
    expect(ok.statusCode).toBe(201);
  });

  it('refuses an empty company name and bad fields with Dutch messages, storing nothing', async () => {
    const before = await t.db.query('SELECT count(*)::int AS n FROM company_requests');
    const res = await t.app.inject({
      method: 'POST',
      url: '/core/companies/request',
      payload: { ...valid, companyName: '  ', postalCode: '12', email: 'geen-mail', companyType: 'Bakker' },
    });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.code).toBe('VALIDATION_ERROR');
    expect(body.fields).toMatchObject({
      companyName: 'Bedrijfsnaam is verplicht',
      postalCode: expect.stringContaining('postcode'),
      email: 'Voer een geldig e-mailadres in',
      companyType: 'Kies het soort bedrijf',
    });
    const after = await t.db.query('SELECT count(*)::int AS n FROM company_requests');
    expect(after.rows[0]).toEqual(before.rows[0]);
  });
});

describe('POST /core/contact', () => {
  it('stores the message and mails it to the team', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/core/contact',
      payload: {
        name: 'Piet',
        email: 'piet@example.nl',
        subject: 'technical-support',
        message: 'Ik kan niet inloggen.',
      },
    });
    expect(res.statusCode).toBe(201);
    const mail = await t.smtp.waitFor((m) => m.text.includes('Ik kan niet inloggen.'));
    expect(mail.to).toEqual(['team@aandenken.test']);
    expect(mail.subject).toBe('Contactformulier: Technische ondersteuning');
    const { rows } = await t.db.query('SELECT name FROM contact_messages WHERE id = $1', [res.json().id]);
    expect(rows).toEqual([{ name: 'Piet' }]);
  });

  it('enforces the required fields', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/core/contact',
      payload: { name: '', email: '', message: '' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toMatchObject({
      name: 'Naam is verplicht',
      email: 'E-mailadres is verplicht',
      subject: 'Kies een onderwerp',
      message: 'Bericht is verplicht',
    });
  });
});
