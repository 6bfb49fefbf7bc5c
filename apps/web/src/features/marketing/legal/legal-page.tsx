import type { ReactNode } from 'react';
import { Container, Eyebrow } from '../../../components/ui/container.tsx';

/** The frame of /privacy and /voorwaarden: a readable column with numbered sections. */
export function LegalPage({
  title,
  eyebrow,
  intro,
  children,
}: {
  title: string;
  eyebrow: string;
  intro: ReactNode;
  children: ReactNode;
}) {
  return (
    <>
      <title>{`${title} · Aandenken`}</title>
      <section className="py-16 sm:py-20">
        <Container className="max-w-3xl">
          <Eyebrow>{eyebrow}</Eyebrow>
          <h1 className="mt-3 text-4xl font-semibold sm:text-5xl">{title}</h1>
          <div className="mt-5 text-lg leading-relaxed text-muted">{intro}</div>
          <div className="mt-12 flex flex-col gap-10">{children}</div>
        </Container>
      </section>
    </>
  );
}

export function LegalSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="flex flex-col gap-3 leading-relaxed">
      <h2 className="text-2xl font-semibold">{title}</h2>
      {children}
    </section>
  );
}

export const legalLinkClass =
  'font-medium text-foreground underline decoration-accent/60 underline-offset-4 hover:decoration-accent';
