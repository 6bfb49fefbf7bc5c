import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { jpegFixture } from './app-memorial.ts';
import { storedUser } from './identity.ts';

/**
 * The real API (/core) with a signed-in person's token or a guest token, for setting up a memorial's state
 * quickly where the UI path is already covered by another spec.
 */
export class CoreApi {
  constructor(
    private readonly request: APIRequestContext,
    private readonly token: () => Promise<string>,
  ) {}

  /**
   * As the person signed in on `page`: their access token from the browser session, read at each call
   * because the e2e server's tokens live only 70 seconds and the app renews them.
   */
  static async as(page: Page): Promise<CoreApi> {
    const token = async () => {
      const user = await storedUser(page);
      expect(user?.access_token, 'signed in').toBeTruthy();
      return user!.access_token;
    };
    await token();
    return new CoreApi(page.request, token);
  }

  /** As a guest of a private page, with the token its access code gives. */
  static async asGuest(page: Page, accessCode: string): Promise<CoreApi> {
    const res = await page.request.post('/core/guest/token', { data: { accessCode } });
    expect(res.status()).toBe(200);
    const { token } = (await res.json()) as { token: string };
    return new CoreApi(page.request, () => Promise.resolve(token));
  }

  private async call<T>(method: 'GET' | 'POST' | 'PUT', path: string, data?: unknown): Promise<T> {
    const res = await this.request.fetch(`/core${path}`, {
      method,
      headers: { authorization: `Bearer ${await this.token()}` },
      ...(data === undefined ? {} : { data }),
    });
    expect(res.ok(), `${method} ${path}: ${res.status()} ${await res.text()}`).toBe(true);
    return (await res.json()) as T;
  }

  /** Details, status or visibility (PUT /memorial). */
  update(id: string, patch: Record<string, unknown>) {
    return this.call<{ accessCode: string | null }>('PUT', '/memorial', { id, ...patch });
  }

  async uploadPhoto(memorialId: string, name: string, hue: number, caption: string): Promise<string> {
    const res = await this.request.post('/core/memorial-media', {
      headers: { authorization: `Bearer ${await this.token()}` },
      multipart: { memorialId, media: await jpegFixture(name, hue) },
    });
    expect(res.status()).toBe(201);
    const { id } = (await res.json()) as { id: string };
    await this.call('PUT', `/memorial-media/${id}`, { caption });
    return id;
  }

  /** A memory through concept and publish: published for members, pending for guests. */
  async addMemory(
    memorialId: string,
    memory: { yearLabel: string; text: string; authorName?: string },
  ): Promise<{ id: string; status: string }> {
    const concept = await this.call<{ id: string }>('POST', '/memories/concept', { memorialId, ...memory });
    return this.call('POST', '/memories/publish', { id: concept.id });
  }

  /** One answer of the biography questions. */
  answer(memorialId: string, questionKey: string, text: string) {
    return this.call('PUT', `/memorial/${memorialId}/biography-template/${questionKey}`, { text });
  }

  /** The biography as stored. */
  biography(memorialId: string) {
    return this.call<{ html: string }>('GET', `/memorial/biography/${memorialId}`);
  }

  /** Lights a candle and returns the API's status (201, or the refusal). */
  async lightCandle(memorialId: string): Promise<number> {
    const res = await this.request.post(`/core/candles/${memorialId}`, {
      headers: { authorization: `Bearer ${await this.token()}` },
      data: { kind: 'candle', name: 'Eigenaar' },
    });
    return res.status();
  }

  invite(memorialId: string, email: string, role: string) {
    return this.call<{ id: string }>('POST', `/guest-invite/${memorialId}`, { email, role });
  }

  acceptInvite(inviteCode: string) {
    return this.call<{ memorialId: string }>('POST', `/guest-invite/accept/${inviteCode}`);
  }
}
