import { deceasedNamesSchema, type DeceasedNames } from '@aandenken/contract';

/** The deceased's names as the create flow carries them between its steps (query firstName, lastName). */
export function namesFromSearch(params: URLSearchParams): DeceasedNames | null {
  const parsed = deceasedNamesSchema.safeParse({
    firstName: params.get('firstName') ?? '',
    lastName: params.get('lastName') ?? '',
  });
  return parsed.success ? parsed.data : null;
}

export function withNames(path: string, names: DeceasedNames): string {
  return `${path}?${new URLSearchParams({ firstName: names.firstName, lastName: names.lastName })}`;
}
