import { expect, test, type Page } from '../support/test.ts';
import { axeResults } from '../support/axe.ts';
import { CoreApi } from '../support/app-api.ts';
import { createMemorialAsNewOwner } from '../support/app-memorial.ts';
import { ownServer } from '../support/server.ts';

// The AI-assisted biography draft (Premium; docs/keepsakes.md 'AI-assisted draft'), against
// the local chat-completions stand-in that support/serve.ts starts (its replies are scripted over HTTP).

const standIn = () => `http://127.0.0.1:${ownServer().llm}`;
const script = async (...replies: object[]) => {
  const res = await fetch(`${standIn()}/__script`, { method: 'POST', body: JSON.stringify(replies) });
  expect(res.ok).toBe(true);
};
const lastRequest = async () => {
  const all = (await (await fetch(`${standIn()}/__requests`)).json()) as {
    body: { stream: boolean; messages: { content: string }[] };
  }[];
  return all.at(-1)!.body;
};

async function expectNoSeriousViolations(page: Page, what: string) {
  const result = await axeResults(page);
  const serious = result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({
      rule: v.id,
      nodes: v.nodes.slice(0, 5).map((n) => `${n.target.join(' ')}: ${n.failureSummary ?? ''}`),
    }));
  expect.soft(serious, `${what}: ${JSON.stringify(serious, null, 2)}`).toEqual([]);
}

async function setTheme(page: Page, theme: 'light' | 'dark') {
  await page
    .context()
    .addCookies([{ name: 'aandenken-theme', value: theme, domain: 'localhost', path: '/' }]);
}

test('the AI draft streams in from the chosen sources, flags an invented year, survives a failing endpoint, and is used only when accepted', async ({
  page,
}) => {
  test.setTimeout(150_000);
  const lastName = `Bos ${Date.now().toString(36)}`;
  const { id } = await createMemorialAsNewOwner(page, 'Gerrit', lastName);
  const api = await CoreApi.as(page);
  await api.update(id, { status: 'active', birthDate: '1938-05-02' });
  await api.answer(id, 'jeugd-plek', 'In Deventer, als jongste van zes.');
  await api.answer(id, 'werk-school', 'De kweekschool in Zwolle.');
  await api.addMemory(id, { yearLabel: 'Zomer 1975', text: 'Hij floot altijd bij het vissen.' });
  await api.addMemory(id, { yearLabel: '1980', text: 'Een geheim dat in de familie blijft.' });

  // From the questions' last step.
  await page.goto(`/memorial/${id}/levensverhaal`);
  await page.getByRole('button', { name: 'Stap 6: Afronden' }).click();
  await page.getByRole('link', { name: 'Laat een concept schrijven met AI' }).click();
  await expect(page).toHaveURL(`/memorial/${id}/levensverhaal/concept`);

  // Where the text goes, and what: the answers are chosen, the memories (written by others) are not.
  await expect(page.getByTestId('ai-draft-privacy')).toContainText(`127.0.0.1:${ownServer().llm}`);
  const answers = page.getByRole('group', { name: 'Antwoorden uit de vragenlijst' });
  await expect(answers.getByRole('checkbox')).toHaveCount(2);
  for (const box of await answers.getByRole('checkbox').all()) await expect(box).toBeChecked();
  const memories = page.getByRole('group', { name: 'Gepubliceerde herinneringen' });
  await expect(memories.getByRole('checkbox', { checked: true })).toHaveCount(0);
  await memories.getByRole('checkbox', { name: /Zomer 1975/ }).check();

  // The model invents a year; the text comes in piece by piece.
  await script({
    text: 'Gerrit groeide op in Deventer, als jongste van zes. [A:jeugd-plek]\n\nIn 1961 ging hij naar de kweekschool in Zwolle. [A:werk-school]\n\nHij floot altijd bij het vissen. [M:1]',
    delayMs: 120,
  });
  await page.getByRole('button', { name: 'Concept schrijven' }).click();
  const draft = page.getByTestId('ai-draft');
  await expect(draft.getByTestId('ai-draft-live')).toContainText('Gerrit groeide op');
  await expect(draft.getByRole('status')).toHaveText(/Klaar/, { timeout: 30_000 });
  const paragraphs = draft.getByTestId('ai-draft-paragraph');
  await expect(paragraphs).toHaveCount(3);
  await expect(draft).toContainText('Concept');
  await expect(paragraphs.nth(0)).toContainText(
    'Bronnen: Antwoord: Waar en in wat voor gezin groeide hij of zij op?',
  );
  await expect(paragraphs.nth(1).getByTestId('ai-draft-flagged')).toContainText('1961');
  await expect(paragraphs.nth(1).locator('mark')).toHaveText(/1961/);
  await expect(paragraphs.nth(2)).toContainText('Bronnen: Herinnering van');
  await expect(paragraphs.nth(2)).not.toContainText('[M:1]');

  // Only what was chosen went to the endpoint.
  const sent = await lastRequest();
  expect(sent.stream).toBe(true);
  const prompt = sent.messages.map((m) => m.content).join('\n');
  expect(prompt).toContain('Hij floot altijd bij het vissen.');
  expect(prompt).not.toContain('Een geheim');
  await expectNoSeriousViolations(page, 'ai-concept (light)');

  // Dark theme: the endpoint fails; nothing changes, and trying again works.
  await setTheme(page, 'dark');
  await page.reload();
  await script({ status: 500 });
  await page.getByRole('button', { name: 'Concept schrijven' }).click();
  await expect(page.getByRole('alert')).toContainText('De AI-dienst gaf een fout (HTTP 500)');
  await expect(page.getByRole('alert')).toContainText('Er is niets veranderd');
  await expectNoSeriousViolations(page, 'ai-concept fout (dark)');
  await page.getByRole('button', { name: 'Opnieuw schrijven' }).click();
  await expect(draft.getByRole('status')).toHaveText(/Klaar/, { timeout: 30_000 });
  await expect(paragraphs).toHaveCount(2);
  await expect(draft).toContainText('In Deventer, als jongste van zes.');
  await expectNoSeriousViolations(page, 'ai-concept (dark)');

  // Nothing is replaced until the family uses it.
  expect((await api.biography(id)).html).toBe('');
  await page.getByRole('button', { name: 'Gebruik dit concept' }).click();
  await expect(page).toHaveURL(`/memorial/${id}/beheer/levensverhaal`);
  await expect(page.locator('[contenteditable="true"]')).toContainText('In Deventer, als jongste van zes.');
});
