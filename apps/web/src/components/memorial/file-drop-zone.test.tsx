import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { FileDropZone } from './upload-list.tsx';

afterEach(cleanup);

describe('<FileDropZone>', () => {
  it('offers photos and videos; on a server without ffmpeg photos only', () => {
    render(<FileDropZone label="Kies foto’s of video’s" onFiles={() => {}} />);
    expect(screen.getByTestId('file-input').getAttribute('accept')).toContain('video/mp4');
    cleanup();
    render(<FileDropZone label="Kies foto’s" videos={false} onFiles={() => {}} />);
    const accept = screen.getByTestId('file-input').getAttribute('accept')!;
    expect(accept.split(',')).toEqual(['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif']);
  });
});
