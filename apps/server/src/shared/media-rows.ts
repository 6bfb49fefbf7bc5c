import type { MediaKind, MediaStatus } from '@aandenken/contract';

export interface VariantRow {
  name: string;
  contentType: string;
  width: number | null;
  height: number | null;
  sizeBytes: number;
}

export interface MediaRow {
  id: string;
  memorial_id: string;
  memory_id: string | null;
  kind: MediaKind;
  status: MediaStatus;
  content_type: string;
  size_bytes: number;
  width: number | null;
  height: number | null;
  caption: string | null;
  position: number;
  uploaded_by_user_id: string | null;
  uploaded_by_guest_token_id: string | null;
  created_at: Date | string;
  variants: VariantRow[];
  [key: string]: unknown;
}

/** A media row's columns (the keys of `MediaRow`), as plain columns or as the keys of a JSON object. */
export const MEDIA_FIELDS = [
  'id',
  'memorial_id',
  'memory_id',
  'kind',
  'status',
  'content_type',
  'size_bytes',
  'width',
  'height',
  'caption',
  'position',
  'uploaded_by_user_id',
  'uploaded_by_guest_token_id',
  'created_at',
  'variants',
];
export const mediaColumns = MEDIA_FIELDS.map((f) => `m.${f}`).join(', ');

/**
 * A memory's media as a JSON array of media rows, in list order, without those hidden after a report: for reads that bring a page of memories
 * with their photos in one statement. `memory` is the memories table's alias.
 */
export const memoryMediaJson = (memory: string) => `coalesce((
    SELECT json_agg(json_build_object(${MEDIA_FIELDS.map((f) => `'${f}', m.${f}`).join(', ')})
                    ORDER BY m.position, m.id)
      FROM media m WHERE m.memory_id = ${memory}.id AND m.hidden_at IS NULL), '[]'::json)`;
