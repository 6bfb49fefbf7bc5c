import type { WallRow } from './repository.ts';

/**
 * A memory with a photo, a video, a love and every kind of field: the card key holds a digest of its card, so
 * any change to how a memory is presented (or to the API address in photo links) makes stored cards unusable
 * at once, with nothing to remember to bump.
 */
export const SAMPLE: WallRow = {
  id: '00000000-0000-4000-8000-000000000001',
  memorial_id: '00000000-0000-4000-8000-000000000002',
  year_label: '1970',
  body: 'Voorbeeld',
  status: 'published',
  members_only: false,
  author_kind: 'guest',
  author_user_id: null,
  author_guest_token_id: null,
  author_display_name: 'Anna de Vries',
  published_at: 0,
  created_at: 0,
  updated_at: 0,
  cursor_ts: '1970-01-01 00:00:00+00',
  love_count: 1,
  loved_by_me: false,
  lover_names: ['Jet'],
  card_version: '0',
  media: [
    {
      id: '00000000-0000-4000-8000-000000000003',
      memorial_id: '00000000-0000-4000-8000-000000000002',
      memory_id: '00000000-0000-4000-8000-000000000001',
      kind: 'image',
      status: 'ready',
      content_type: 'image/jpeg',
      size_bytes: 1,
      width: 640,
      height: 480,
      caption: 'Onderschrift',
      position: 0,
      uploaded_by_user_id: null,
      uploaded_by_guest_token_id: null,
      created_at: '1970-01-01T00:00:00Z',
      variants: [
        { name: 'original', contentType: 'image/jpeg', width: 640, height: 480, sizeBytes: 1 },
        { name: 'w640.jpg', contentType: 'image/jpeg', width: 640, height: 480, sizeBytes: 1 },
        { name: 'w640.webp', contentType: 'image/webp', width: 640, height: 480, sizeBytes: 1 },
      ],
    },
    {
      id: '00000000-0000-4000-8000-000000000004',
      memorial_id: '00000000-0000-4000-8000-000000000002',
      memory_id: '00000000-0000-4000-8000-000000000001',
      kind: 'video',
      status: 'ready',
      content_type: 'video/mp4',
      size_bytes: 1,
      width: null,
      height: null,
      caption: null,
      position: 1,
      uploaded_by_user_id: null,
      uploaded_by_guest_token_id: null,
      created_at: '1970-01-01T00:00:00Z',
      variants: [{ name: 'original', contentType: 'video/mp4', width: null, height: null, sizeBytes: 1 }],
    },
  ],
};
