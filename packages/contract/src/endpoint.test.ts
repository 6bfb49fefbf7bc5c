import { describe, expect, it } from 'vitest';
import { biographyHelpEndpoints, endpointPath, type EndpointInput } from './index.ts';

describe('endpoint', () => {
  it('holds the method, the path and the schemas; builds the concrete path from named parameters', () => {
    const save = biographyHelpEndpoints.saveAnswer;
    expect(save.method).toBe('PUT');
    expect(save.path.pattern).toBe('/memorial/:id/biography-template/:questionKey');
    expect(endpointPath(save, { id: 'm1', questionKey: 'jeugd/1' })).toBe(
      '/memorial/m1/biography-template/jeugd%2F1',
    );
    expect(save.body.parse({ text: 'Opgegroeid in Zwolle' })).toEqual({ text: 'Opgegroeid in Zwolle' });
    expect(biographyHelpEndpoints.template.body).toBeUndefined();
    // Typed from the schemas (checked by `tsc -b`, never run): a body's fields and the path's parameters.
    const _typed: EndpointInput<typeof save>[] = [
      { params: { id: 'm1', questionKey: 'k' }, body: { text: 't' } },
      // @ts-expect-error the answer's text is missing
      { params: { id: 'm1', questionKey: 'k' }, body: {} },
      // @ts-expect-error the question's key is missing
      { params: { id: 'm1' }, body: { text: 't' } },
    ];
    // A GET without a body takes none.
    // @ts-expect-error no body for the template's GET
    const _noBody: EndpointInput<typeof biographyHelpEndpoints.template> = { params: { id: 'm1' }, body: {} };
  });
});
