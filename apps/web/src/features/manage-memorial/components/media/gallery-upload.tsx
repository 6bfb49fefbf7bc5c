import { useState } from 'react';
import { MEDIA_GALLERY_MAX, videoAndMusicOffMessage, type Memorial } from '@aandenken/contract';
import { pickFiles, type PickedFile } from '../../../../components/memorial/file-checks.ts';
import { FileDropZone, UploadList } from '../../../../components/memorial/upload-list.tsx';
import { useUploadQueue } from '../../../../components/memorial/use-upload-queue.ts';
import { useVideoAndMusic } from '../../../../components/plans/api.ts';
import { useApiClient } from '../../../../lib/api-client.ts';
import { toast } from '../../../../lib/toast.ts';
import { uploadGalleryItem, useRefreshGallery } from '../../api/media.ts';
import { Section } from '../section.tsx';

/** Adding photos and videos: several at once, each sent as soon as it is chosen, with its progress. */
export function GalleryUpload({ memorial, count }: { memorial: Memorial; count: number }) {
  const client = useApiClient();
  const refresh = useRefreshGallery(memorial.id);
  const queue = useUploadQueue();
  const [problems, setProblems] = useState<string[]>([]);
  const [uploading, setUploading] = useState(false);
  const videos = useVideoAndMusic(memorial.id);

  const upload = async (picked: PickedFile[]) => {
    setUploading(true);
    const { done } = await queue.run(
      (file, onProgress) => uploadGalleryItem(client, memorial.id, file, onProgress),
      picked,
    );
    await refresh();
    setUploading(false);
    if (done > 0)
      toast.success(done === 1 ? 'De foto is toegevoegd' : `${done} foto’s en video’s zijn toegevoegd`);
    // Finished ones leave the list; failed ones stay with their reason.
    queue.removeDone();
  };

  return (
    <Section
      title="Foto’s en video’s toevoegen"
      description="Kies er meerdere tegelijk. Foto’s worden voor het web verkleind. Van foto’s en video’s verwijderen we plaatsgegevens en andere metadata."
    >
      <FileDropZone
        label={videos ? 'Kies foto’s of video’s' : 'Kies foto’s'}
        hint={
          videos
            ? `Foto’s tot 20 MB, video’s (MP4, WebM) tot 100 MB; maximaal ${MEDIA_GALLERY_MAX} op een pagina. Sleep ze hierheen of kies ze.`
            : `${videoAndMusicOffMessage} Foto’s tot 20 MB; maximaal ${MEDIA_GALLERY_MAX} op een pagina.`
        }
        videos={videos}
        disabled={uploading || memorial.status === 'archived'}
        onFiles={(list) => {
          const { picked, problems: found } = pickFiles(list, count, MEDIA_GALLERY_MAX, videos);
          setProblems(found);
          queue.add(picked, { dropFailed: true });
          if (picked.length) void upload(picked);
        }}
      />
      {problems.length > 0 && (
        <ul role="alert" className="mt-3 flex flex-col gap-1 text-sm text-danger">
          {problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      )}
      <div className="mt-4" aria-live="polite">
        <UploadList files={queue.files} disabled={uploading} onRemove={queue.remove} />
      </div>
    </Section>
  );
}
