import {
  ACCESS_CODE_CHALLENGE_INVALID_MESSAGE,
  ACCESS_CODE_CHALLENGE_MESSAGE,
  ACCESS_CODE_FAILURES_PER_MINUTE,
  ACCESS_CODE_MEMORIAL_LOCKED_MESSAGE,
  errorCodes,
  routes,
  type GuestToken,
} from '@aandenken/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Deps } from '../../lib/deps.ts';
import { AppError } from '../../lib/errors.ts';
import { accessCodeCrypto } from '../../shared/access-code.ts';
import { budgetExceededMail, memorialFailuresMail } from './mails.ts';
import { proofOfWork } from './proof-of-work.ts';
import { guestRepository } from './repository.ts';
import { accessCodeInvalid, accessCodeLimited } from './service.ts';
import { guestTokens, type GuestTokens } from './tokens.ts';

export interface CodeAttempt {
  accessCode: string;
  /** Named by a link from a mail or a printed card: the code is compared with this memorial only. */
  memorialId?: string | undefined;
  /** A solved proof-of-work challenge (base64), needed while the global budget is used up. */
  pow?: string | undefined;
}

const memorialLocked = () => new AppError(429, errorCodes.rateLimited, ACCESS_CODE_MEMORIAL_LOCKED_MESSAGE);

/**
 * Exchanges an access code for a guest token (docs/security.md, "Access codes").
 *
 * - Per address: 5 wrong codes a minute, `ACCESS_CODE_FAILURES_PER_HOUR` an hour; then 429, also for a right code.
 * - Without a memorial: compared with every page. Once `ACCESS_CODE_GLOBAL_FAILURES_PER_HOUR` wrong codes from
 *   all addresses have come in within the hour, a code is only checked with a solved proof-of-work challenge
 *   (429 CHALLENGE_REQUIRED carries one); the team is mailed, at most once an hour.
 * - With a memorial (links in mails and on printed cards): compared with that page only, never asked for a
 *   challenge; `ACCESS_CODE_MEMORIAL_FAILURES` wrong codes in 15 minutes lock it for 15, 30, 60 ... minutes,
 *   and its owners are mailed once at `ACCESS_CODE_MEMORIAL_OWNER_ALERT`.
 * - An invite-only page opens by no code at all.
 *
 * Limits are checked before the code is looked at. Logged without the code.
 */
export function accessCodeCheck(deps: Pick<Deps, 'db' | 'config' | 'outbox'> & { tokens?: GuestTokens }) {
  const { db, config, outbox } = deps;
  const repo = guestRepository(db);
  const codes = accessCodeCrypto(db);
  const tokens = deps.tokens ?? guestTokens(deps);
  const pow = proofOfWork(db, config.ACCESS_CODE_POW_MAX_NUMBER);

  async function challengeRequired(message: string): Promise<AppError> {
    const err = new AppError(429, errorCodes.challengeRequired, message);
    err.extra = { challenge: await pow.challenge() };
    return err;
  }

  /** Mails ADMIN_EMAILS that the global budget is used up; at most once an hour, whichever process notices. */
  async function tellTeam(failures: number, log: FastifyBaseLogger) {
    const sent = await db.transaction(async (tx) => {
      if (!(await repo.claimAlert(tx, 'global-budget', 1))) return false;
      if (config.ADMIN_EMAILS.length === 0) return true;
      await outbox.enqueue(
        tx,
        budgetExceededMail({
          to: config.ADMIN_EMAILS,
          failures,
          budget: config.ACCESS_CODE_GLOBAL_FAILURES_PER_HOUR,
        }),
      );
      return true;
    });
    if (sent) {
      log.warn(
        { event: 'access_code.budget_exceeded', failuresLastHour: failures },
        'global budget of wrong access codes used up: proof of work asked',
      );
    }
  }

  async function tellOwners(memorialId: string, failures: number, log: FastifyBaseLogger) {
    const told = await db.transaction(async (tx) => {
      if (!(await repo.claimOwnerAlert(tx, memorialId, config.ACCESS_CODE_MEMORIAL_OWNER_ALERT)))
        return false;
      for (const owner of await repo.ownersOf(tx, memorialId)) {
        await outbox.enqueue(
          tx,
          memorialFailuresMail({
            to: owner.email,
            ownerName: owner.name,
            memorialName: owner.memorial_name,
            failures,
            manageUrl: `${config.APP_URL ?? config.PUBLIC_URL}${routes.memorial(memorialId)}`,
          }),
        );
      }
      return true;
    });
    if (told) {
      log.warn(
        { event: 'access_code.memorial_alert', memorialId, failures },
        'owners told of many wrong codes',
      );
    }
  }

  async function succeed(
    attempt: number,
    memorial: { id: string; access_code_version: number },
    client: string,
    log: FastifyBaseLogger,
  ): Promise<GuestToken> {
    await repo.finishAttempt(attempt, 'succeeded', memorial.id);
    const issued = await tokens.issue({
      memorialId: memorial.id,
      accessCodeVersion: memorial.access_code_version,
    });
    log.info(
      { event: 'access_code.succeeded', client, memorialId: memorial.id, tokenId: issued.tokenId },
      'guest token issued for access code',
    );
    return {
      token: issued.token,
      memorialId: memorial.id,
      expiresAt: issued.expiresAt.toISOString(),
      guestName: null,
    };
  }

  return {
    async tokenForAccessCode(
      input: CodeAttempt,
      clientAddress: string,
      log: FastifyBaseLogger,
    ): Promise<GuestToken> {
      const client = await codes.hashOther('client', clientAddress);
      const attempt = await repo.startAttempt(client);
      const budget = config.ACCESS_CODE_GLOBAL_FAILURES_PER_HOUR;
      const n = await repo.countFailures(client, attempt, budget);
      if (n.minute >= ACCESS_CODE_FAILURES_PER_MINUTE || n.hour >= config.ACCESS_CODE_FAILURES_PER_HOUR) {
        await repo.finishAttempt(attempt, 'limited');
        log.warn(
          { event: 'access_code.limited', client, failuresLastMinute: n.minute, failuresLastHour: n.hour },
          'access code attempt refused: rate limited',
        );
        throw accessCodeLimited();
      }
      if (Math.random() < 0.01) await repo.pruneAttempts();
      const codeHash = await codes.hash(input.accessCode);

      if (input.memorialId) {
        const { memorialId } = input;
        if (!(await repo.reserveMemorialSlot(memorialId, config.ACCESS_CODE_MEMORIAL_FAILURES))) {
          // Locked, its window full, or no such memorial (then the code cannot be right either).
          if (await repo.memorialExists(memorialId)) {
            await repo.finishAttempt(attempt, 'limited', memorialId);
            log.warn({ event: 'access_code.memorial_locked', client, memorialId }, 'memorial locked');
            throw memorialLocked();
          }
          await repo.finishAttempt(attempt, 'failed');
          log.info({ event: 'access_code.failed', client }, 'access code attempt failed');
          throw accessCodeInvalid();
        }
        const memorial = await repo.findOpenableByCodeHash(codeHash, memorialId);
        if (memorial) {
          await repo.releaseMemorialSlot(memorialId);
          return succeed(attempt, memorial, client, log);
        }
        const failed = await repo.recordMemorialFailure(memorialId, config.ACCESS_CODE_MEMORIAL_FAILURES);
        await repo.finishAttempt(attempt, 'failed', memorialId);
        log.info(
          {
            event: 'access_code.failed',
            client,
            memorialId,
            memorialFailures: failed.totalFailures,
            lockedUntil: failed.lockedUntil?.toISOString(),
          },
          'access code attempt for a named memorial failed',
        );
        if (failed.totalFailures >= config.ACCESS_CODE_MEMORIAL_OWNER_ALERT) {
          await tellOwners(memorialId, failed.totalFailures, log);
        }
        throw accessCodeInvalid();
      }

      if (n.global >= budget) {
        await tellTeam(n.global, log);
        if (!input.pow) {
          await repo.finishAttempt(attempt, 'challenged');
          log.info({ event: 'access_code.challenged', client }, 'proof of work asked');
          throw await challengeRequired(ACCESS_CODE_CHALLENGE_MESSAGE);
        }
        if (!(await pow.redeem(input.pow))) {
          await repo.finishAttempt(attempt, 'challenged');
          log.info({ event: 'access_code.challenge_refused', client }, 'proof of work refused');
          throw await challengeRequired(ACCESS_CODE_CHALLENGE_INVALID_MESSAGE);
        }
      }

      const memorial = await repo.findOpenableByCodeHash(codeHash);
      // An unpublished, archived or invite-only page is not reachable by code: answered like a wrong code.
      if (!memorial) {
        await repo.finishAttempt(attempt, 'failed');
        log.info({ event: 'access_code.failed', client }, 'access code attempt failed');
        throw accessCodeInvalid();
      }
      return succeed(attempt, memorial, client, log);
    },
  };
}
