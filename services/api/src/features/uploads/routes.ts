import fastifyMultipart from '@fastify/multipart';
import {
  AVATAR_MAX_BYTES,
  DOCUMENT_MAX_BYTES,
  documentListResponse,
  errorCodes,
  uploadAvatarFields,
  uploadAvatarResponse,
  uploadDocumentFields,
  uploadDocumentResponse,
  uploadMessages,
} from '@peeks/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { refuse } from '../../plugins/error-envelope.ts';
import { signedIn } from '../../plugins/sessions.ts';
import { sessionUserOf } from '../accounts/index.ts';
import { onlyOwn } from '../merchants/index.ts';
import { checkedFile, parseForm, readUploadForm, withinLimit } from './form.ts';
import { contentTypeOf, reencode } from './image.ts';
import { findAvatar, insertDocument, listDocuments, saveAvatar } from './queries.ts';

/** An avatar is shown small; 512 pixels a side is plenty for any screen's circle. */
const AVATAR_MAX_SIDE = 512;
/** A document must stay legible for a reviewer; 4096 pixels a side keeps a phone photo's detail. */
const DOCUMENT_MAX_SIDE = 4096;

const avatarParams = z.object({
  userId: z
    .string()
    .regex(/^\d{1,16}$/)
    .transform(Number),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});

/**
 * Avatar and identity-document uploads (spec §2 Profile page, §5 Document
 * upload, §7). Multipart is accepted by these routes only: the plugin is
 * registered inside this one, so every other route stays JSON-only.
 * Each upload names the signed-in user; another user's id is 404.
 */
export const uploadRoutes: FastifyPluginAsyncZod = async (app) => {
  // Per-call limits in readUploadForm are tighter; these are the ceiling if a route forgets them.
  await app.register(fastifyMultipart, {
    limits: { fileSize: DOCUMENT_MAX_BYTES, files: 1, fields: 10, parts: 11, fieldSize: 256 },
  });

  app.post(
    '/api/user/user-upload-avatar',
    {
      schema: { response: { 200: uploadAvatarResponse } },
      config: {
        rateLimit: app.rateLimits.uploads,
        operation: {
          operationId: 'uploadAvatar',
          summary: 'Upload an avatar (multipart form)',
          tag: 'uploads',
          form: uploadAvatarFields,
        },
      },
    },
    async (request) => {
      const session = signedIn(request);
      const form = await readUploadForm(request, AVATAR_MAX_BYTES);
      const { fields, image } = parseForm(
        uploadAvatarFields,
        form,
        checkedFile(form, { kinds: ['jpeg'], name: /\.jpe?g$/i, wrongType: uploadMessages.avatarNotJpeg }),
      );
      onlyOwn(fields.user_id, session.userId, errorCodes.userNotFound);
      const jpeg = await reencode(image.bytes, 'jpeg', AVATAR_MAX_SIDE);
      if (!jpeg) throw refuse(400, errorCodes.invalidFormat, { field: 'file', message: uploadMessages.avatarNotJpeg });
      const avatar = await saveAvatar(app.db, session.userId, withinLimit(jpeg, AVATAR_MAX_BYTES), app.clock());
      return {
        response: 'success' as const,
        avatar,
        user: await sessionUserOf(app.db, session),
        message: uploadMessages.avatarUploaded,
      };
    },
  );

  /**
   * An avatar as the session user's `avatar` URL names it. Signed-in users
   * only (contacts show each other's avatars); the URL changes with every
   * upload, so each version may be cached for a year.
   */
  app.get(
    '/api/user/avatar/:userId/:sha256',
    {
      config: {
        operation: {
          operationId: 'getAvatar',
          summary: "Get a user's avatar image",
          tag: 'uploads',
          errors: [404],
          produces: 'image/*',
        },
      },
      schema: { params: avatarParams },
    },
    async (request, reply) => {
      signedIn(request);
      const avatar = await findAvatar(app.db, request.params.userId, request.params.sha256);
      if (!avatar) throw refuse(404, errorCodes.notFound);
      return (
        reply
          .header('content-type', avatar.content_type)
          .header('x-content-type-options', 'nosniff')
          .header('cache-control', 'private, max-age=31536000, immutable')
          .header('etag', `"${avatar.sha256}"`)
          // Opened on its own, the image is never a document that could run anything.
          .header('content-security-policy', "default-src 'none'; sandbox")
          .send(avatar.content)
      );
    },
  );

  app.post(
    '/api/user/upload-document',
    {
      schema: { response: { 200: uploadDocumentResponse } },
      config: {
        rateLimit: app.rateLimits.uploads,
        operation: {
          operationId: 'uploadDocument',
          summary: 'Upload an identity document (multipart form)',
          tag: 'uploads',
          form: uploadDocumentFields,
        },
      },
    },
    async (request) => {
      const session = signedIn(request);
      const form = await readUploadForm(request, DOCUMENT_MAX_BYTES);
      const { fields, image } = parseForm(
        uploadDocumentFields,
        form,
        checkedFile(form, { kinds: ['jpeg', 'png'], wrongType: uploadMessages.documentNotImage }),
      );
      onlyOwn(fields.user_id, session.userId, errorCodes.userNotFound);
      onlyOwn(fields.merchant_id, session.merchantId, errorCodes.merchantNotFound);
      const stored = await reencode(image.bytes, image.kind, DOCUMENT_MAX_SIDE);
      if (!stored)
        throw refuse(400, errorCodes.invalidFormat, { field: 'file', message: uploadMessages.documentNotImage });
      const owner = { userId: session.userId, merchantId: fields.merchant_id ?? null };
      const document = await insertDocument(
        app.db,
        owner,
        fields,
        { bytes: withinLimit(stored, DOCUMENT_MAX_BYTES), contentType: contentTypeOf[image.kind] },
        app.clock(),
      );
      return { response: 'success' as const, document, message: uploadMessages.documentUploaded };
    },
  );

  /** The signed-in user's documents, metadata only: the images are never served back. */
  app.get(
    '/api/user/document-list',
    {
      config: {
        operation: { operationId: 'listDocuments', summary: "List the user's identity documents", tag: 'uploads' },
      },
      schema: { response: { 200: documentListResponse } },
    },
    async (request) => {
      const session = signedIn(request);
      return { response: 'success' as const, documents: await listDocuments(app.db, session.userId) };
    },
  );
};
