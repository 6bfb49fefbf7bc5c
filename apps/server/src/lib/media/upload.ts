import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { once } from 'node:events';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type {} from '@fastify/multipart';
import type * as z from 'zod/mini';
import {
  errorCodes,
  MEDIA_IMAGE_MAX_BYTES,
  MEDIA_VIDEO_MAX_BYTES,
  mediaImageTypes,
  mediaVideoTypes,
} from '@aandenken/contract';
import { AppError, badRequest } from '../errors.ts';
import { nulMessage } from '../input-guard.ts';
import { normaliseDeclaredType, SNIFF_BYTES } from './sniff.ts';

/** A file received from a multipart request, in a temporary file that the caller must `discard`. */
export interface ReceivedFile {
  path: string;
  sizeBytes: number;
  sha256: string;
  /** The declared Content-Type of the part, normalised. */
  declaredType: string;
  /** The first bytes, for sniffing. */
  head: Buffer;
  /** The name the client gave the file (shown back, never used as a path). */
  fileName?: string;
}

export const unsupportedType = () =>
  new AppError(
    415,
    errorCodes.unsupportedMediaType,
    'Dit bestandstype wordt niet ondersteund. Kies een foto (JPEG, PNG, WebP, AVIF of GIF) of een video (MP4 of WebM).',
    { media: 'Bestandstype niet ondersteund' },
  );
export const heicUnsupported = () =>
  new AppError(
    415,
    errorCodes.unsupportedMediaType,
    "HEIC-foto's (zoals van een iPhone) kunnen we niet verwerken. Kies bij het delen 'Meest compatibel' of zet de foto om naar JPEG.",
    { media: 'HEIC wordt niet ondersteund' },
  );
export const imageTooLarge = () =>
  new AppError(
    413,
    errorCodes.payloadTooLarge,
    `Deze foto is te groot (maximaal ${MEDIA_IMAGE_MAX_BYTES / 1024 / 1024} MB).`,
    { media: 'Bestand te groot' },
  );
export const videoTooLarge = () =>
  new AppError(
    413,
    errorCodes.payloadTooLarge,
    `Deze video is te groot (maximaal ${MEDIA_VIDEO_MAX_BYTES / 1024 / 1024} MB).`,
    { media: 'Bestand te groot' },
  );

const isImage = (t: string) => (mediaImageTypes as readonly string[]).includes(t);
const isVideo = (t: string) => (mediaVideoTypes as readonly string[]).includes(t);

/** What an upload route accepts when it is not the photo and video gallery. */
export interface UploadAcceptance {
  accepts: (declaredType: string) => boolean;
  maxBytes: number;
  tooLarge: () => AppError;
  unsupported: () => AppError;
}

/** Options for @fastify/multipart on upload routes: one file, a few short text fields. */
export const uploadMultipartLimits = {
  fileSize: MEDIA_VIDEO_MAX_BYTES + 1,
  files: 1,
  fields: 5,
  fieldSize: 2000,
  fieldNameSize: 50,
  parts: 6,
  headerPairs: 50,
};

/** Room for the multipart framing and the text fields around the largest file. */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;
/** The largest upload body a client may declare: the largest file plus the form around it. */
export const UPLOAD_MAX_DECLARED_BYTES = MEDIA_VIDEO_MAX_BYTES + MULTIPART_OVERHEAD_BYTES;

/**
 * An onRequest hook for upload routes, after authentication (`requireCaller`), before any byte of the
 * body is read: a declared Content-Length over the largest upload is 413, and one caller (a user, or
 * one guest token) has at most `perCaller` uploads in flight (429), so no caller can hold more than
 * that many bounded temporary files on disk at once.
 */
export function uploadGate(perCaller: number) {
  const inFlight = new Map<string, number>();
  return async (req: FastifyRequest, reply: FastifyReply) => {
    const declared = Number(req.headers['content-length']);
    if (declared > UPLOAD_MAX_DECLARED_BYTES) {
      throw new AppError(
        413,
        errorCodes.payloadTooLarge,
        `Dit bestand is te groot (maximaal ${MEDIA_VIDEO_MAX_BYTES / 1024 / 1024} MB).`,
        { media: 'Bestand te groot' },
      );
    }
    const caller = await req.caller();
    const key =
      caller.kind === 'user'
        ? `user:${caller.userId}`
        : caller.kind === 'guest'
          ? `guest:${caller.tokenId}`
          : null;
    if (!key) return;
    const n = inFlight.get(key) ?? 0;
    if (n >= perCaller) {
      throw new AppError(
        429,
        errorCodes.rateLimited,
        `Je verstuurt al ${perCaller} bestanden tegelijk. Wacht tot die klaar zijn en probeer het dan opnieuw.`,
      );
    }
    inFlight.set(key, n + 1);
    // 'close' comes once the answer is sent or the connection is gone, whichever way the upload ended.
    reply.raw.once('close', () => {
      const left = (inFlight.get(key) ?? 1) - 1;
      if (left > 0) inFlight.set(key, left);
      else inFlight.delete(key);
    });
  };
}

/**
 * Reads a multipart upload with text fields and one file part named `media`. The text fields are
 * validated with `fieldsSchema`; `authorize` runs as soon as they are known — before the file is
 * read when the client sends them first (as the web app does), otherwise right after. The file is
 * streamed to a temporary file under `tmpDir`, counting bytes against the limit of its declared
 * type; over the limit the upload stops with 413 and nothing is kept.
 */
export async function receiveUpload<S extends z.ZodMiniType>(
  req: FastifyRequest,
  opts: {
    tmpDir: string;
    fieldsSchema: S;
    authorize: (fields: z.output<S>) => Promise<void>;
    /** Other files than photos and videos (the presentation's music): which declared types, how large. */
    accept?: UploadAcceptance;
  },
): Promise<{ fields: z.output<S>; file: ReceivedFile; discard: () => Promise<void> }> {
  if (!req.isMultipart()) {
    throw new AppError(415, errorCodes.unsupportedMediaType, 'Verstuur het bestand als multipart/form-data.');
  }
  const raw: Record<string, string> = {};
  let fields: z.output<S> | undefined;
  let file: ReceivedFile | undefined;
  const tmpPath = path.join(opts.tmpDir, `upload-${crypto.randomUUID()}`);
  const discard = () => fs.rm(tmpPath, { force: true });

  const validate = async () => {
    const parsed = opts.fieldsSchema.safeParse(raw);
    if (!parsed.success) {
      const errs: Record<string, string> = {};
      for (const issue of parsed.error.issues) errs[issue.path.join('.') || '_'] ??= issue.message;
      const first = Object.values(errs)[0];
      throw badRequest(first ? `Controleer je invoer: ${first}` : 'Controleer je invoer.', errs);
    }
    fields = parsed.data;
    await opts.authorize(parsed.data);
  };

  try {
    for await (const part of req.parts()) {
      // A part whose Content-Disposition names no field: the parser gives it no field name at all.
      if (typeof part.fieldname !== 'string' || part.fieldname === '') {
        if (part.type === 'file') part.file.resume();
        throw badRequest('Controleer je invoer: elk deel van het formulier heeft een veldnaam nodig.', {
          _: 'Deel zonder veldnaam',
        });
      }
      if (part.type === 'field') {
        if (typeof part.value !== 'string' || part.valueTruncated) {
          throw badRequest('Controleer je invoer: een veld is te lang.', { [part.fieldname]: 'Te lang' });
        }
        if (part.value.includes('\u0000') || part.fieldname.includes('\u0000')) {
          throw badRequest(nulMessage, { [part.fieldname]: 'Bevat een ongeldig teken (NUL)' });
        }
        raw[part.fieldname] = part.value;
        continue;
      }
      if (part.fieldname !== 'media' || file) {
        part.file.resume();
        throw badRequest('Upload één bestand in het veld media.', { media: 'Eén bestand in het veld media' });
      }
      // Fields sent before the file are checked (and the caller authorised) before reading it; when
      // they come after it, after.
      if (!fields && opts.fieldsSchema.safeParse(raw).success) await validate();
      const declaredType = normaliseDeclaredType(part.mimetype);
      const accept = opts.accept;
      const limit = accept
        ? accept.accepts(declaredType)
          ? accept.maxBytes
          : 0
        : isImage(declaredType)
          ? MEDIA_IMAGE_MAX_BYTES
          : isVideo(declaredType)
            ? MEDIA_VIDEO_MAX_BYTES
            : 0;
      if (limit === 0) {
        part.file.resume();
        if (accept) throw accept.unsupported();
        throw declaredType === 'image/heic' || declaredType === 'image/heif'
          ? heicUnsupported()
          : unsupportedType();
      }
      const tooLarge = () =>
        accept ? accept.tooLarge() : isImage(declaredType) ? imageTooLarge() : videoTooLarge();
      await fs.mkdir(opts.tmpDir, { recursive: true });
      const out = createWriteStream(tmpPath, { flags: 'wx' });
      // A write that fails (a full disk: ENOSPC) is reported here and thrown below, never as an
      // unhandled 'error' event that would stop the process.
      let writeError: Error | undefined;
      out.on('error', (err) => (writeError ??= err));
      const hash = createHash('sha256');
      const headChunks: Buffer[] = [];
      let headLength = 0;
      let size = 0;
      try {
        for await (const chunk of part.file as AsyncIterable<Buffer>) {
          size += chunk.length;
          if (size > limit) throw tooLarge();
          if (headLength < SNIFF_BYTES) {
            headChunks.push(chunk.subarray(0, SNIFF_BYTES - headLength));
            headLength += Math.min(chunk.length, SNIFF_BYTES - headLength);
          }
          hash.update(chunk);
          if (writeError) throw writeError;
          if (!out.write(chunk)) await drainOrClose(out);
        }
        if (part.file.truncated) throw tooLarge();
      } catch (err) {
        part.file.resume(); // the rest of the file is read and dropped, so the answer can be sent
        throw err;
      } finally {
        if (!out.closed) {
          out.end();
          await once(out, 'close');
        }
      }
      if (writeError) throw writeError;
      if (size === 0) throw badRequest('Het bestand is leeg.', { media: 'Leeg bestand' });
      file = {
        path: tmpPath,
        sizeBytes: size,
        sha256: hash.digest('hex'),
        declaredType,
        head: Buffer.concat(headChunks),
        fileName: typeof part.filename === 'string' ? part.filename : undefined,
      };
    }
    if (!file) throw badRequest('Kies een foto of video om te uploaden.', { media: 'Kies een bestand' });
    if (!fields) await validate();
  } catch (err) {
    await discard();
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw videoTooLarge();
    if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') {
      throw badRequest('Upload één bestand met alleen de gevraagde velden.', {
        media: 'Eén bestand per keer',
      });
    }
    throw err;
  }
  return { fields: fields as z.output<S>, file, discard };
}

/**
 * Waits until a stream written past its buffer may take more ('drain'), or has closed. The listener of the
 * event that did not come is removed again: left behind, one per full buffer, a large upload piled up
 * hundreds of them ("Possible EventEmitter memory leak detected").
 */
export async function drainOrClose(out: NodeJS.EventEmitter): Promise<void> {
  const done = new AbortController();
  try {
    await Promise.race([
      once(out, 'drain', { signal: done.signal }),
      once(out, 'close', { signal: done.signal }),
    ]);
  } finally {
    done.abort();
  }
}

/** Removes temporary upload files left by a process that stopped mid-upload. */
export async function sweepStaleUploads(tmpDir: string, olderThanMs = 3_600_000): Promise<void> {
  const names = await fs.readdir(tmpDir).catch(() => [] as string[]);
  const limit = Date.now() - olderThanMs;
  for (const name of names.filter((n) => n.startsWith('upload-'))) {
    const file = path.join(tmpDir, name);
    const stat = await fs.stat(file).catch(() => null);
    if (stat && stat.mtimeMs < limit) await fs.rm(file, { force: true });
  }
}
